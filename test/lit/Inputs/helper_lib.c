/* A plain C library for driver/link_flags.wc (built into libhelper.a). */
int helper_scale(int v) { return v * 3; }
