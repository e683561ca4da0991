#!/usr/bin/env bash
# The Debian package of ludus: the release binary, its manual pages (`ludus man`) and its bash,
# zsh and fish completions (`ludus completions`), with README.md, protocol.md and CHANGELOG.md;
# built by cargo-deb from [package.metadata.deb] in Cargo.toml.
#
#   cargo install cargo-deb --locked      # once
#   bash packaging/deb.sh                 # prints the path of target/debian/ludus_*.deb
#   sudo dpkg -i target/debian/ludus_*.deb
#
# The release build is reused when it is up to date; .ci/run builds, installs and runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked
ludus=./target/release/ludus
assets=target/assets
rm -rf "$assets"
mkdir -p "$assets/man" "$assets/completions"
"$ludus" man --out "$assets/man" >/dev/null
"$ludus" completions bash >"$assets/completions/ludus"
"$ludus" completions zsh >"$assets/completions/_ludus"
"$ludus" completions fish >"$assets/completions/ludus.fish"
cargo deb --no-build
