"""Cloud targets: everything that differs between GKE, EKS and AKS lives in its target."""
