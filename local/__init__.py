"""The local stack: development tooling only, never shipped in the Lambda layer."""
