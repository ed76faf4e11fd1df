"""One run on disk: its records, identity, header, resume, output paths, shards."""
