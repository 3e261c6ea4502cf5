"""convmem: conversation memory for chat agents on AWS (the Lambda layer's core library)."""
