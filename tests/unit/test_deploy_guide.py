"""docs/deploy.md's parameter table names every parameter of template.yaml with its default: a
deployer reading it must not meet a prompt the guide does not explain, or a stale default."""

from __future__ import annotations

import re
from pathlib import Path

from cfnlint.decode import cfn_yaml

ROOT = Path(__file__).resolve().parents[2]


def test_every_template_parameter_is_in_the_guide_with_its_default():
    params = cfn_yaml.load(str(ROOT / "template.yaml"))["Parameters"]
    guide = (ROOT / "docs" / "deploy.md").read_text()
    rows = {m[0]: m[1] for m in re.findall(r"^\| `(\w+)` \| ([^|]*) \|", guide, re.M)}
    assert set(params) <= set(rows), f"not in docs/deploy.md's parameter table: {sorted(set(params) - set(rows))}"
    for name, spec in params.items():
        default = str(spec.get("Default", ""))
        shown = rows[name]
        if default:
            assert f"`{default}`" in shown, f"{name}: the guide shows {shown!r}, the template's default is {default!r}"
        else:
            assert "empty" in shown, name
