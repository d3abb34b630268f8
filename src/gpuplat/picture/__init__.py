"""The platform as a picture: environments, clusters, pools and workloads, with their cost."""
