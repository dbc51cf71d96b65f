"""Compile the translations (``.ts`` → ``.qm``) as part of every build, wheel or editable.

Everything else about the package is in ``pyproject.toml``. Qt's ``lrelease`` comes from
PySide6-Essentials, a build requirement. A wheel gets the ``.qm`` files in its build folder;
an editable install gets them beside the ``.ts`` files (git ignores them).
"""

import importlib.util
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


def _translations():
    spec = importlib.util.spec_from_file_location(
        "translations", ROOT / "packaging" / "translations.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildWithTranslations(build_py):
    def run(self):
        super().run()
        translations = _translations()
        if getattr(self, "editable_mode", False):
            translations.release()
        else:
            translations.release(
                Path(self.build_lib) / "memory_desk" / "resources" / "translations"
            )


setup(cmdclass={"build_py": BuildWithTranslations})
