//! The documents stand alone: every relative link in the repository's Markdown files leads to a
//! file or folder inside the repository, and no document sends the reader to `../shared/`
//! (a fresh clone has no such folder).

use std::fs;
use std::path::{Path, PathBuf};

/// The Markdown files of the repository, outside `target/` and hidden folders.
fn markdown_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("read a folder of the repository") {
        let path = entry.expect("a folder entry").path();
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        if name.starts_with('.') || name == "target" {
            continue;
        }
        if path.is_dir() {
            markdown_files(&path, found);
        } else if name.ends_with(".md") {
            found.push(path);
        }
    }
}

/// The targets of the inline links `[text](target)` of a Markdown text.
fn link_targets(text: &str) -> Vec<&str> {
    let mut targets = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        let end = rest.find(')').unwrap_or(rest.len());
        targets.push(rest[..end].trim());
        rest = &rest[end..];
    }
    targets
}

#[test]
fn every_relative_link_stays_inside_the_repository() {
    let root = fs::canonicalize(env!("CARGO_MANIFEST_DIR")).expect("the repository root");
    let mut files = Vec::new();
    markdown_files(&root, &mut files);
    assert!(
        files.iter().any(|f| f.ends_with("protocol.md")),
        "{files:?}"
    );
    let mut problems = Vec::new();
    for file in &files {
        let text = fs::read_to_string(file).expect("a UTF-8 document");
        let shown = file.strip_prefix(&root).unwrap_or(file).display();
        if text.contains("../shared") || text.contains("shared/rules") {
            problems.push(format!("{shown} points the reader to the shared folder"));
        }
        for target in link_targets(&text) {
            let path = target.split('#').next().unwrap_or("");
            if path.is_empty() || path.contains("://") || path.starts_with("mailto:") {
                continue;
            }
            let base = if path.starts_with('/') {
                root.clone()
            } else {
                file.parent().expect("a file has a folder").to_path_buf()
            };
            match fs::canonicalize(base.join(path.trim_start_matches('/'))) {
                Ok(resolved) if resolved.starts_with(&root) => {}
                Ok(resolved) => problems.push(format!(
                    "{shown} links to {target}, outside the repository ({})",
                    resolved.display()
                )),
                Err(_) => problems.push(format!("{shown} links to {target}, which does not exist")),
            }
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}

#[test]
fn link_targets_are_found() {
    assert_eq!(
        link_targets("see [a](docs/a.md#x) and [b]( ../b ) and [c](https://x.org)"),
        ["docs/a.md#x", "../b", "https://x.org"]
    );
}
