"""Vendoring gpuplat's modules into an existing Terraform repository.

The lock of what was vendored (``lock``), the destination's own Terraform read with
python-hcl2 (``layout``, ``destination``, ``constraints``), the three-way merge of an upgrade by
blocks and attributes (``blockmerge``, ``linemerge``), what an upgrade changes for the
infrastructure (``impact``, ``replacement``), the module calls of a cluster for an existing
root (``calls``) and typed CDKTF constructs of the modules (``cdktf``).
"""
