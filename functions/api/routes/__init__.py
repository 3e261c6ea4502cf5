"""The API's routes, one Powertools Router per resource: access (visitors, tokens, health),
sessions (turns, transcripts, forgetting a conversation) and me (facts, profile, export, erasure)."""
