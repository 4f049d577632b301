"""A lesson's packages in the browser: each wheel checked against its sha256, then installed with micropip.

The page's worker fetches every wheel the lesson lists from the site itself and writes it to
`path`; `install` reads it back, compares its sha256 with the build's, and hands it to micropip
(current micropip installs the checked file; the legacy runtime's micropip 0.17 takes only a URL,
the same-origin one the file came from, which the service worker answers from the same cache).
No dependency is resolved here: the build lists every wheel, dependencies first.

`not_installed` is the one sentence a learner sees for an import of a package the lesson does not list.

Runs on Python 3.8 and later.
"""

import hashlib
import importlib
import inspect

from course import numbers

NOT_INSTALLED = {
    "en": "The package '{name}' is not part of this lesson: its author can add it under 'packages:' in the "
          "lesson's front matter.",
    "es": "El paquete '{name}' no forma parte de esta lección: quien la escribe puede añadirlo en 'packages:', "
          "al principio del archivo de la lección.",
    "uk": "Пакет '{name}' не входить до цього уроку: автор може додати його до 'packages:' на початку файлу "
          "уроку.",
}


async def install(wheels):
    """Install [{"name", "file", "sha256", "url", "path"}] in order; raise ValueError for a wheel whose bytes differ."""
    import micropip
    takes_files = "deps" in inspect.signature(micropip.install).parameters
    for wheel in wheels:
        with open(wheel["path"], "rb") as handle:
            digest = hashlib.sha256(handle.read()).hexdigest()
        if digest != wheel["sha256"]:
            raise ValueError("{} is not the file the course was built with (sha256 {}, expected {}); reload the "
                             "page".format(wheel["file"], digest, wheel["sha256"]))
        if takes_files:
            await micropip.install("emfs:" + wheel["path"], deps=False)
        else:
            await micropip.install(wheel["url"])
    importlib.invalidate_caches()


def not_installed(error):
    """The sentence for a ModuleNotFoundError of a whole package (None for other errors, or a missing submodule)."""
    name = getattr(error, "name", None)
    if not isinstance(error, ModuleNotFoundError) or not name or "." in name:
        return None
    sentence = NOT_INSTALLED.get(numbers.current_language(), NOT_INSTALLED["en"])
    return sentence.format(name=name)
