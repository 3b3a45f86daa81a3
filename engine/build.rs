//! Names the commit plyd is built from, for `plyd --version`: builds of one
//! version number differ from commit to commit, and a ladder or a bug
//! report needs to tell them apart. Outside a git checkout of plyd (a
//! source archive, even one unpacked inside another repository, as a
//! distribution's packaging tree is), or without git, the version is the
//! number alone. `PLYD_BUILD_COMMIT` set at build time names the commit
//! instead (a packager's, from the archive's name), and set empty leaves it
//! out.

use std::path::{Path, PathBuf};
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    (out.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
}

/// Whether the checkout git finds from here is plyd's own: its top is the
/// workspace's folder (the one above this crate's), not a repository
/// around an unpacked archive.
fn in_own_checkout() -> bool {
    let Some(top) = git(&["rev-parse", "--show-toplevel"]) else {
        return false;
    };
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let resolved = |p: &Path| -> Option<PathBuf> { p.canonicalize().ok() };
    resolved(Path::new(&top)).is_some_and(|top| resolved(&workspace) == Some(top))
}

fn main() {
    println!("cargo:rerun-if-env-changed=PLYD_BUILD_COMMIT");
    let own = in_own_checkout();
    let commit = match std::env::var("PLYD_BUILD_COMMIT") {
        Ok(given) => Some(given.trim().to_string()).filter(|c| !c.is_empty()),
        Err(_) if own => git(&["rev-parse", "--short=12", "HEAD"]),
        Err(_) => None,
    };
    let version = match &commit {
        Some(commit) => format!("{} (commit {commit})", env!("CARGO_PKG_VERSION")),
        None => env!("CARGO_PKG_VERSION").to_string(),
    };
    println!("cargo:rustc-env=PLYD_LONG_VERSION={version}");
    // Built again when the commit moves: HEAD, the branch it names and the
    // packed references.
    match git(&["rev-parse", "--absolute-git-dir"]).filter(|_| own) {
        Some(dir) => {
            let dir = Path::new(&dir);
            let mut watched = vec![dir.join("HEAD"), dir.join("packed-refs")];
            if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
                watched.push(dir.join(branch));
            }
            // A path that is not there would have the script run at every
            // build (a branch whose reference is packed).
            for path in watched.iter().filter(|p| p.exists()) {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
        None => println!("cargo:rerun-if-changed=build.rs"),
    }
}
