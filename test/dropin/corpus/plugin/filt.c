/* filt - runs stdin through a chain of plugins:
 *
 *   filt ./libplug_rot13.so=3 ./libplug_squeeze.so < text
 *
 * Before loading anything it installs its own SIGSEGV handler; a plugin
 * library must not replace it.  `filt --fault` checks that: it raises
 * SIGSEGV after loading the plugins and expects its own handler to run.
 * `filt --crash` dereferences a null pointer with the default action.
 */
#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plugin.h"

#define MAX_PLUGINS 8

struct loaded {
	void *handle;
	struct filt_plugin p;
	void *state;
};

static volatile sig_atomic_t faults;

static void on_segv(int sig)
{
	static const char msg[] = "filt: own SIGSEGV handler ran\n";
	(void)sig;
	faults++;
	if (write(STDOUT_FILENO, msg, sizeof msg - 1) < 0)
		_exit(3);
}

void filt_log(const char *plugin, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "[%s] ", plugin);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static int load(struct loaded *l, const char *spec)
{
	char path[512];
	const char *arg = strchr(spec, '=');
	size_t n = arg != NULL ? (size_t)(arg - spec) : strlen(spec);
	filt_plugin_entry entry;

	if (n >= sizeof path) {
		fprintf(stderr, "filt: %s: name too long\n", spec);
		return -1;
	}
	memcpy(path, spec, n);
	path[n] = '\0';
	l->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (l->handle == NULL) {
		fprintf(stderr, "filt: %s\n", dlerror());
		return -1;
	}
	*(void **)&entry = dlsym(l->handle, "filt_plugin_v1");
	if (entry == NULL || entry(&l->p) != 0 || l->p.abi != FILT_ABI) {
		fprintf(stderr, "filt: %s: not a filt plugin\n", path);
		dlclose(l->handle);
		return -1;
	}
	l->state = l->p.open(arg != NULL ? arg + 1 : NULL);
	return 0;
}

int main(int argc, char **argv)
{
	struct loaded plugins[MAX_PLUGINS];
	struct sigaction sa;
	char buf[4096];
	int n = 0, i, fault = 0, crash = 0;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_segv;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, NULL) != 0)
		return 3;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--fault") == 0) {
			fault = 1;
			continue;
		}
		if (strcmp(argv[i], "--crash") == 0) {
			crash = 1;
			continue;
		}
		if (n == MAX_PLUGINS || load(&plugins[n], argv[i]) != 0)
			return 1;
		n++;
	}
	while (fgets(buf, sizeof buf, stdin) != NULL) {
		size_t len = strlen(buf);
		for (i = 0; i < n; i++)
			len = plugins[i].p.transform(buf, len, plugins[i].state);
		fwrite(buf, 1, len, stdout);
	}
	fflush(stdout);
	for (i = n; i-- > 0;) {
		plugins[i].p.close(plugins[i].state);
		dlclose(plugins[i].handle);
	}
	if (fault) {
		raise(SIGSEGV);
		printf("filt: %d fault(s) handled\n", (int)faults);
	}
	if (crash) {
		volatile int *volatile nowhere = NULL;
		signal(SIGSEGV, SIG_DFL);
		printf("filt: about to crash\n");
		fflush(stdout);
		return *nowhere;
	}
	return 0;
}
