"""Released module versions: their lock of file hashes, their READMEs and changelogs."""
