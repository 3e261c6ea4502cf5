"""local/build_check.py's verdicts on layers built for the wrong interpreter, machine or size
(no download: small fake layers; the real build is tests/integration/test_layer_build.py)."""

from __future__ import annotations

import pytest

from local.build_check import BuildCheckError, check_layer, tag_fits

AARCH64_ELF = b"\x7fELF\x02\x01\x01" + b"\x00" * 11 + (183).to_bytes(2, "little") + b"\x00" * 44
X86_64_ELF = b"\x7fELF\x02\x01\x01" + b"\x00" * 11 + (62).to_bytes(2, "little") + b"\x00" * 44


@pytest.mark.parametrize("tag, fits", [
    ("py3-none-any", True),
    ("py2.py3-none-any", True),
    ("cp312-cp312-manylinux_2_17_aarch64", True),
    ("cp312-cp312-manylinux2014_aarch64", True),
    ("cp312-cp312-manylinux_2_34_aarch64", True),
    ("cp311-abi3-manylinux_2_17_aarch64", True),     # the stable ABI of an older CPython loads on 3.12
    ("cp312-cp312-manylinux_2_39_aarch64", False),   # needs a newer glibc than Amazon Linux 2023's 2.34
    ("cp312-cp312-manylinux_2_17_x86_64", False),    # the wrong machine
    ("cp311-cp311-manylinux_2_17_aarch64", False),   # the wrong interpreter
    ("cp313-abi3-manylinux_2_17_aarch64", False),    # a stable ABI newer than 3.12
    ("cp312-cp312-macosx_11_0_arm64", False),
])
def test_wheel_tags_fit_only_cpython_312_on_linux_aarch64_with_glibc_234(tag, fits):
    assert tag_fits(tag) is fits


def _layer(tmp_path, tag: str, so_name: str, elf: bytes, requires: str = ""):
    site = tmp_path / "python"
    info = site / "fastlib-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "WHEEL").write_text(f"Wheel-Version: 1.0\nRoot-Is-Purelib: false\nTag: {tag}\n")
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: fastlib\nVersion: 1.0\n{requires}\n")
    (site / "fastlib").mkdir()
    (site / "fastlib" / so_name).write_bytes(elf)
    return site


def test_a_layer_of_aarch64_cp312_wheels_passes_and_reports_its_size(tmp_path):
    site = _layer(tmp_path, "cp312-cp312-manylinux_2_17_aarch64", "_fast.cpython-312-aarch64-linux-gnu.so", AARCH64_ELF)
    report = check_layer(site, max_mb=200)
    assert report["native_modules"] == ["fastlib/_fast.cpython-312-aarch64-linux-gnu.so"]
    assert report["unzipped_mb"] < 1 and report["distributions"] == 1


@pytest.mark.parametrize("tag, so_name, elf, requires, complaint", [
    ("cp312-cp312-manylinux_2_17_x86_64", "_fast.cpython-312-x86_64-linux-gnu.so", X86_64_ELF, "", "not 64-bit AArch64"),
    ("cp312-cp312-manylinux_2_17_aarch64", "_fast.cpython-311-aarch64-linux-gnu.so", AARCH64_ELF, "", "another CPython"),
    ("cp312-cp312-manylinux_2_17_aarch64", "_fast.cpython-312-aarch64-linux-gnu.so", AARCH64_ELF,
     "Requires-Dist: missinglib>=2", "unmet requirements"),
])
def test_a_layer_that_would_fail_at_import_on_lambda_is_refused(tmp_path, tag, so_name, elf, requires, complaint):
    site = _layer(tmp_path, tag, so_name, elf, requires)
    with pytest.raises(BuildCheckError, match=complaint):
        check_layer(site, max_mb=200)


def test_a_requirement_for_another_platform_is_not_required(tmp_path):
    site = _layer(tmp_path, "cp312-cp312-manylinux_2_17_aarch64", "_fast.cpython-312-aarch64-linux-gnu.so", AARCH64_ELF,
                  'Requires-Dist: pywin32; sys_platform == "win32"\nRequires-Dist: tomli; python_version < "3.11"')
    assert check_layer(site, max_mb=200)["distributions"] == 1


def test_a_layer_over_the_size_bound_is_refused(tmp_path):
    site = _layer(tmp_path, "cp312-cp312-manylinux_2_17_aarch64", "_fast.cpython-312-aarch64-linux-gnu.so", AARCH64_ELF)
    (site / "fastlib" / "data.bin").write_bytes(b"\0" * 1_200_000)
    with pytest.raises(BuildCheckError, match="unzipped layer is 1.2 MB, over 1.0 MB"):
        check_layer(site, max_mb=1.0)
