"""The cost model: per-node rates by capacity type, estimates per environment, budgets,
stranded GPUs, plan cost deltas and infracost usage files. Prices come from the catalog."""
