"""The store ports on one DynamoDB table, a module per aggregate (see ``keys`` for the data model)."""
