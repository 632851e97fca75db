// Module names as Python's import system gives them. A file is importable
// under the name its path spells below a source root: the folder above its
// top package (the unbroken chain of folders with an __init__.py, as pytest
// and `python -m` find it), the folders given on the command line that are
// not packages themselves, the folder of a script given by name, and the top
// of the git work tree they are in. Folders between a root and a package
// that have no __init__.py are namespace packages (PEP 420). A name that
// spells no file below any root is library code: `import functools` never
// binds a project file that happens to be called functools.py.
#pragma once

#include <string>
#include <vector>

namespace graphsafe::lint::py {

struct SourceRoots {
  // Folders, absolute and normal: where names start.
  std::vector<std::string> Folders;
  // Folders that are symbolic links to other folders below the given ones
  // (DeepSpeed's `deepspeed/accelerator -> ../accelerator`): the target's
  // modules are importable through the link's path too.
  std::vector<std::pair<std::string, std::string>> Links; // (link, target)
  // The roots of a run: each folder given that is no package, the parent
  // of each one that is, each given script's folder, and Top (a git work
  // tree's top), when set.
  static SourceRoots of(const std::vector<std::string> &Given, const std::string &Top);
};

struct ModuleNames {
  // The dotted name: its package's for a module of a package, else from
  // the nearest root.
  std::string Module;
  std::string Package; // the package relative imports start from
  // Every other dotted name the file is importable under, from farther
  // roots (a namespace package named from the folder above a given one).
  std::vector<std::string> Aliases;
};

ModuleNames moduleNamesOf(const std::string &Path, const SourceRoots &Roots);

// Folders whose Python files are not the project's own code: hidden ones,
// caches, virtual environments, installed packages, build outputs.
bool isSkippedFolder(const std::string &Name);

// Whether a folder's or file's name can be imported (`micro-benchmark`
// cannot: no folder so named is a package).
bool isIdentifier(const std::string &Name);
// Whether Dir is a regular package (holds an __init__.py).
bool isPackageFolder(const std::string &Dir);

} // namespace graphsafe::lint::py
