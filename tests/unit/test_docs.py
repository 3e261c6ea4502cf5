"""The generated parts of docs/ say what the code and the last benchmark run say.

A reader of docs/operations.md sets variables from its table and a reader of docs/benchmarks.md
quotes its figures: a setting added, a bound changed, an alarm renamed or a benchmark re-run
without `make docs` (`python -m tools.gen_docs`) would leave them reading something untrue.
"""

from __future__ import annotations

import json

from convmem.settings import Settings

from tools import gen_docs


def test_the_settings_parameters_and_alarms_of_operations_md_are_generated_from_the_code():
    on_disk = gen_docs.OPERATIONS.read_text(encoding="utf-8")
    assert on_disk == gen_docs.operations_page(on_disk), "docs/operations.md is stale: run make docs"


def test_every_setting_is_in_the_operations_table_with_its_default_and_meaning():
    page = gen_docs.OPERATIONS.read_text(encoding="utf-8")
    for name, field in Settings.model_fields.items():
        assert field.description, f"Settings.{name} has no docstring: the operations table would say nothing"
        row = next((line for line in page.splitlines() if line.startswith(f"| `{field.alias}` |")), None)
        assert row is not None, field.alias
        assert " ".join(field.description.split())[:40] in row


def test_benchmarks_md_shows_the_results_of_results_json():
    on_disk = gen_docs.BENCHMARKS.read_text(encoding="utf-8")
    results = json.loads(gen_docs.RESULTS.read_text(encoding="utf-8"))
    assert on_disk == gen_docs.benchmarks_page(on_disk, results), "docs/benchmarks.md is stale: run make docs"
    for goal in results["goals"]:  # every goal, met or not, is on the page
        assert goal["goal"] in on_disk


def test_a_changed_figure_makes_the_benchmarks_page_stale():
    on_disk = gen_docs.BENCHMARKS.read_text(encoding="utf-8")
    results = json.loads(gen_docs.RESULTS.read_text(encoding="utf-8"))
    results["goals"][0] = {**results["goals"][0], "value": "a new measurement", "met": False}
    regenerated = gen_docs.benchmarks_page(on_disk, results)
    assert regenerated != on_disk and "a new measurement" in regenerated
