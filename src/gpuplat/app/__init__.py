"""One function per command: typed arguments in, values out, GpuplatError on failure."""
