"""pgcodec's PEP 517 build backend: CMake builds the extension, this writes the wheel.

`pip install .` and `python3 -m build --wheel` call the hooks below
(pyproject.toml names this module, in-tree). The library and the module
are C++ built by the project's own CMake files, so a backend that only
drives CMake needs nothing from PyPI: no setuptools, no wheel package, no
scikit-build. It works offline with `--no-build-isolation`:

    pip install . --no-build-isolation --no-index
    python3 -m build --no-isolation --wheel

What a build needs: cmake, a C++20 compiler, the headers of the Python it
runs under (python3-dev), and nlohmann-json3-dev (the convert/check
subcommands of `python -m pgcodec` share the CLI's code). The library is
linked statically into the module, so the wheel holds one shared object and
needs nothing but the C++ runtime.

Settings (pip: --config-settings KEY=VALUE; build: -C KEY=VALUE):
    build-dir   keep the CMake build here (default: a temporary directory,
                removed afterwards); a kept one makes the next build incremental
    jobs        parallel compile jobs (default: the CPU count)
    cmake-args  extra arguments for the CMake configure step, split at spaces
Progress goes to standard error (pip shows it with -v).
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import tomllib
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _project() -> dict:
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        project = tomllib.load(f)["project"]
    # The version is CMake's (project(pgcodec VERSION ...)), written once.
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        m = re.search(r"project\(pgcodec\s+VERSION\s+([0-9.]+)", f.read())
    if not m:
        raise RuntimeError("pgcodec build: no 'project(pgcodec VERSION x.y.z' in CMakeLists.txt")
    project["version"] = m.group(1)
    return project


def _dist_name(project: dict) -> str:
    return f"{project['name']}-{project['version']}"


def _metadata(project: dict) -> str:
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {project['name']}",
        f"Version: {project['version']}",
        f"Summary: {project['description']}",
        f"Requires-Python: {project['requires-python']}",
        f"License: {project['license']['text']}",
    ]
    lines += [f"Classifier: {c}" for c in project.get("classifiers", [])]
    for label, url in project.get("urls", {}).items():
        lines.append(f"Project-URL: {label}, {url}")
    readme = project.get("readme")
    body = ""
    if readme:
        lines.append("Description-Content-Type: text/markdown")
        with open(os.path.join(ROOT, readme), encoding="utf-8") as f:
            body = "\n" + f.read()
    return "\n".join(lines) + "\n" + body


def _tag() -> str:
    impl = sys.implementation.name
    if impl != "cpython":
        raise RuntimeError(f"pgcodec build: the extension module is for CPython, not {impl}")
    py = f"cp{sys.version_info.major}{sys.version_info.minor}"
    plat = re.sub(r"[^A-Za-z0-9_]", "_", sysconfig.get_platform())
    return f"{py}-{py}-{plat}"


def _say(msg: str) -> None:
    print(f"pgcodec build: {msg}", file=sys.stderr, flush=True)


def _run(cmd: list[str]) -> None:
    _say(" ".join(cmd))
    # The compiler's output goes to standard error with ours; a failure
    # stops the build with CMake's own message above it.
    r = subprocess.run(cmd, stdout=sys.stderr, stderr=sys.stderr)
    if r.returncode != 0:
        raise RuntimeError(f"pgcodec build: '{cmd[0]} {cmd[1]}' failed with exit status {r.returncode}")


def _build_module(build: str, stage: str, settings: dict) -> str:
    """Configures and builds the module; installs the package into `stage`."""
    if not shutil.which("cmake"):
        raise RuntimeError("pgcodec build: cmake not found (Debian: apt-get install cmake)")
    configure = [
        "cmake", "-S", ROOT, "-B", build,
        "-DCMAKE_BUILD_TYPE=Release",
        "-DBUILD_SHARED_LIBS=OFF",
        "-DPGCODEC_BUILD_PYTHON=ON",
        "-DPGCODEC_BUILD_TOOLS=OFF",
        "-DPGCODEC_BUILD_TESTS=OFF",
        "-DPGCODEC_BUILD_BENCH=OFF",
        "-DPGCODEC_BUILD_FUZZ=OFF",
        # The interpreter running this hook (a venv's, say) is the one the
        # module is for; its base installation has the headers.
        f"-DPython3_EXECUTABLE={sys.executable}",
        "-DPGCODEC_PYTHON_INSTALL_DIR=site",
    ]
    if shutil.which("ninja") and not os.path.exists(os.path.join(build, "CMakeCache.txt")):
        configure += ["-G", "Ninja"]
    configure += (settings.get("cmake-args") or "").split()
    _run(configure)
    jobs = str(settings.get("jobs") or os.cpu_count() or 1)
    _run(["cmake", "--build", build, "--target", "pgcodec_python", "--parallel", jobs])
    _run(["cmake", "--install", build, "--component", "python", "--prefix", stage])
    return os.path.join(stage, "site")


def _record_line(path: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def _write_wheel(site: str, wheel_directory: str, project: dict) -> str:
    tag = _tag()
    dist = _dist_name(project)
    info = f"{dist}.dist-info"
    name = f"{dist}-{tag}.whl"
    files: list[tuple[str, bytes]] = []
    for top, dirs, names in os.walk(site):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for n in sorted(names):
            full = os.path.join(top, n)
            with open(full, "rb") as f:
                files.append((os.path.relpath(full, site).replace(os.sep, "/"), f.read()))
    if not any(p.startswith("pgcodec/_pgcodec") for p, _ in files):
        raise RuntimeError("pgcodec build: the install step left no extension module in the package")
    wheel_meta = f"Wheel-Version: 1.0\nGenerator: pgcodec_build\nRoot-Is-Purelib: false\nTag: {tag}\n"
    with open(os.path.join(ROOT, "LICENSE"), "rb") as f:
        license_text = f.read()
    files += [
        (f"{info}/METADATA", _metadata(project).encode()),
        (f"{info}/WHEEL", wheel_meta.encode()),
        (f"{info}/LICENSE", license_text),
    ]
    record = [_record_line(p, d) for p, d in files] + [f"{info}/RECORD,,"]
    files.append((f"{info}/RECORD", ("\n".join(record) + "\n").encode()))
    os.makedirs(wheel_directory, exist_ok=True)
    final = os.path.join(wheel_directory, name)
    # Written beside its final name and renamed: a failed build leaves no
    # half-written wheel where pip or build would pick it up.
    fd, partial = tempfile.mkstemp(prefix=".pgcodec-", suffix=".whl.part", dir=wheel_directory)
    try:
        with os.fdopen(fd, "wb") as raw, zipfile.ZipFile(raw, "w", zipfile.ZIP_DEFLATED) as z:
            for path, data in files:
                info_entry = zipfile.ZipInfo(path, date_time=(2020, 1, 1, 0, 0, 0))
                mode = 0o755 if path.endswith(".so") else 0o644
                info_entry.external_attr = (0o100000 | mode) << 16
                info_entry.compress_type = zipfile.ZIP_DEFLATED
                z.writestr(info_entry, data)
        os.replace(partial, final)
    except BaseException:
        os.unlink(partial)
        raise
    _say(f"wrote {final}")
    return name


# --- PEP 517 hooks -----------------------------------------------------------

def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    settings = dict(config_settings or {})
    project = _project()
    keep = settings.get("build-dir")
    with tempfile.TemporaryDirectory(prefix="pgcodec-wheel-") as tmp:
        build = os.path.abspath(keep) if keep else os.path.join(tmp, "build")
        stage = os.path.join(tmp, "stage")
        site = _build_module(build, stage, settings)
        return _write_wheel(site, wheel_directory, project)


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    project = _project()
    info = os.path.join(metadata_directory, f"{_dist_name(project)}.dist-info")
    os.makedirs(info, exist_ok=True)
    with open(os.path.join(info, "METADATA"), "w", encoding="utf-8") as f:
        f.write(_metadata(project))
    return os.path.basename(info)


# The source distribution: what git tracks (the build needs the whole C++
# tree), or, outside a git checkout, the tree without build outputs.
_SKIP = {".git", "build", "__pycache__", "dist"}


def _source_files() -> list[str]:
    try:
        out = subprocess.run(["git", "-C", ROOT, "ls-files", "-z"], capture_output=True, check=True).stdout
        return sorted(p for p in out.decode().split("\0") if p and os.path.isfile(os.path.join(ROOT, p)))
    except (OSError, subprocess.CalledProcessError):
        found = []
        for top, dirs, names in os.walk(ROOT):
            dirs[:] = sorted(d for d in dirs if d not in _SKIP)
            found += [os.path.relpath(os.path.join(top, n), ROOT) for n in names]
        return sorted(found)


def build_sdist(sdist_directory, config_settings=None):
    project = _project()
    dist = _dist_name(project)
    name = f"{dist}.tar.gz"
    os.makedirs(sdist_directory, exist_ok=True)
    fd, partial = tempfile.mkstemp(prefix=".pgcodec-", suffix=".tar.gz.part", dir=sdist_directory)
    os.close(fd)
    try:
        with tarfile.open(partial, "w:gz", format=tarfile.PAX_FORMAT) as t:
            for p in _source_files():
                t.add(os.path.join(ROOT, p), arcname=f"{dist}/{p}", recursive=False)
            pkg_info = _metadata(project).encode()
            entry = tarfile.TarInfo(f"{dist}/PKG-INFO")
            entry.size = len(pkg_info)
            import io
            t.addfile(entry, io.BytesIO(pkg_info))
        os.replace(partial, os.path.join(sdist_directory, name))
    except BaseException:
        os.unlink(partial)
        raise
    return name
