"""The domain stays pure: no AWS SDKs, no Powertools, no encryption SDK: rules a newcomer can test without AWS (docs/architecture.md)."""

import ast
from pathlib import Path

import convmem.domain

FORBIDDEN = ("boto3", "botocore", "aws_encryption_sdk", "aws_cryptographic_material_providers", "aws_lambda_powertools", "convmem.adapters", "convmem.service")


def test_domain_modules_import_nothing_from_aws_or_adapters():
    offenders = []
    for path in Path(convmem.domain.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            offenders += [f"{path.name}: {n}" for n in names if n.startswith(FORBIDDEN)]
    assert offenders == []


def test_the_layer_never_imports_the_local_stack():
    root = Path(convmem.domain.__file__).parent.parent
    hits = [str(p) for p in root.rglob("*.py") if "import local" in p.read_text() or "from local" in p.read_text()]
    assert hits == []
