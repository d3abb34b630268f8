"""HCL text: the one quoting function and expression writer that root modules are written with."""
