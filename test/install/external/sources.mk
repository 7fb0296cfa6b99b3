# The sources of the external project's targets, for test/project/Makefile.
APP := main.wc util.wc
CORE := core/util.wc core/greeting.c
PLUGIN := plugin.wc
HOST := host.c
override CPPFLAGS += -I$(SRC)/include -DEXTERNAL_GREETING='"hello from outside"'
