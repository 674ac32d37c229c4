#!/bin/sh
# `npm install`'s prepare step: points git at the hooks kept in .githooks (commit-msg: subjects of at most
# 72 characters). Does nothing, successfully, where there is no git work tree of our own (an unpacked
# tarball, `npm ci` in a build without .git, or a copy lying inside somebody else's repository), so it can
# never fail an install.
[ -d .githooks ] || exit 0
command -v git >/dev/null 2>&1 || exit 0
top=$(git rev-parse --show-toplevel 2>/dev/null) || exit 0
[ "$top" = "$(pwd -P)" ] || exit 0
git config core.hooksPath .githooks || true
exit 0
