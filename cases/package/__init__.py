"""Case packages: a case as plain files, in the public format of case-package.md.

- `data`: the parsed case as frozen dataclasses, and `Problem`;
- `reader`: a folder or zip → files dict → `CaseData` and shape problems;
- `writer`: `CaseData` → files dict → a folder or zip.

Nothing here imports Django: the linter (`cases.lint`) and these modules run anywhere.
"""
