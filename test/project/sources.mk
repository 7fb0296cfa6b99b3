# The sources of test/project's targets, for its Makefile.
APP := app/main.wc app/util.wc app/io/util.wc
CORE := core/stage.wc core/sum.c
PLUGIN := plugin/plugin.wc plugin/glue.c
HOST := host/host.c
override CPPFLAGS += -I$(SRC)/include -I$(SRC)
