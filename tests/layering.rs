//! The crate's layering, read from the source: every `use` line and every `crate::`/`super::`
//! path is resolved to the file that defines it, and the test checks that
//!
//! - no file imports from a higher layer than its own (the layers in [`LAYERS`], lowest first),
//! - no files import each other in a circle (a child file reaching up to its own parent module
//!   is not counted: that is how Rust modules share their parent's items),
//!
//! so that the layering the README draws stays true as the code grows.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The top-level modules, lowest layer first: a module may use only those before it.
const LAYERS: &[&str] = &[
    "common", "board", "rules", "eval", "search", "options", "plan", "bench", "engine", "protocol",
    "players", "arena", "tune", "net", "world", "web", "fuzz",
];

/// Circles of files that are known and not yet taken apart, each as its files in order. The
/// test fails on any other circle, and on any of these that is gone (so the list only shrinks).
const KNOWN_CIRCLES: &[&[&str]] = &[];

type ModulePath = Vec<String>;

struct Crate {
    /// Each file's module path (`src/a/b.rs` and `src/a/b/mod.rs` are `[a, b]`).
    files: BTreeMap<String, ModulePath>,
    /// Module path to file.
    modules: BTreeMap<ModulePath, String>,
}

fn read_crate() -> (Crate, BTreeMap<String, String>) {
    let mut sources = BTreeMap::new();
    collect(Path::new("src"), &mut sources);
    let mut files = BTreeMap::new();
    let mut modules = BTreeMap::new();
    for file in sources.keys() {
        let mut path: ModulePath = file
            .trim_start_matches("src/")
            .trim_end_matches(".rs")
            .split('/')
            .map(str::to_string)
            .collect();
        if path.last().is_some_and(|last| last == "mod") {
            path.pop();
        }
        modules.insert(path.clone(), file.clone());
        files.insert(file.clone(), path);
    }
    (Crate { files, modules }, sources)
}

fn collect(dir: &Path, sources: &mut BTreeMap<String, String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect(&path, sources);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let name = path.to_string_lossy().replace('\\', "/");
            // The binary's own files sit above every layer.
            if !["src/main.rs", "src/cli.rs", "src/lib.rs"].contains(&name.as_str()) {
                sources.insert(name, std::fs::read_to_string(&path).unwrap());
            }
        }
    }
}

/// Expands a `use` tree (`a::{b, c::{d, e}}`) into its paths.
fn expand(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        return vec![tree.split(" as ").next().unwrap().trim().to_string()];
    };
    let prefix = tree[..open].trim_end_matches("::");
    let inner = &tree[open + 1..tree.rfind('}').unwrap()];
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|part| !part.trim().is_empty())
        .flat_map(expand)
        .map(|path| match (prefix.is_empty(), path.as_str()) {
            (true, _) => path,
            (false, "self") => prefix.to_string(),
            (false, _) => format!("{prefix}::{path}"),
        })
        .collect()
}

/// Every path the file names, with how many inline modules (`mod tests { .. }`) it sits in.
fn named_paths(source: &str) -> Vec<(String, usize)> {
    let mut paths = Vec::new();
    let mut inline_modules: Vec<usize> = Vec::new();
    let mut statement: Option<(String, usize)> = None;
    for line in source.lines() {
        let indent = line.len() - line.trim_start().len();
        let code = line.trim();
        if inline_modules.last() == Some(&indent) && code.starts_with('}') {
            inline_modules.pop();
        }
        if code.starts_with("//") {
            continue;
        }
        let words: Vec<&str> = code.split_whitespace().collect();
        let is_inline_module = code.ends_with('{')
            && (words.first() == Some(&"mod")
                || (words.first().is_some_and(|w| w.starts_with("pub"))
                    && words.get(1) == Some(&"mod")));
        let depth = inline_modules.len();
        if let Some((text, at)) = statement.as_mut() {
            text.push_str(code);
            if code.ends_with(';') {
                let at = *at;
                let text = statement.take().unwrap().0;
                paths.extend(
                    expand(text.trim_end_matches(';'))
                        .into_iter()
                        .map(|p| (p, at)),
                );
            }
        } else if let Some(rest) = use_statement(code) {
            if rest.ends_with(';') {
                paths.extend(
                    expand(rest.trim_end_matches(';'))
                        .into_iter()
                        .map(|p| (p, depth)),
                );
            } else {
                statement = Some((rest.to_string(), depth));
            }
        } else {
            for start in ["crate::", "super::"] {
                let mut from = 0;
                while let Some(found) = code[from..].find(start) {
                    let at = from + found;
                    let before = code[..at].chars().last();
                    let end = code[at..]
                        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                        .map_or(code.len(), |e| at + e);
                    if !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                        paths.push((code[at..end].trim_end_matches(':').to_string(), depth));
                    }
                    from = end.max(at + 1);
                }
            }
        }
        if is_inline_module {
            inline_modules.push(indent);
        }
    }
    paths
}

/// The tree of a `use` statement on this line, if it starts one.
fn use_statement(code: &str) -> Option<&str> {
    let code = match code.strip_prefix("pub(") {
        Some(rest) => rest.split_once(") ")?.1,
        None => code.strip_prefix("pub ").unwrap_or(code),
    };
    code.strip_prefix("use ")
}

impl Crate {
    /// The file that defines what `path` names, from `file` at `depth` inline modules deep.
    fn resolve(&self, file: &str, path: &str, depth: usize) -> Option<&String> {
        let here = &self.files[file];
        let mut segments: Vec<&str> = path.split("::").map(str::trim).collect();
        let mut full: ModulePath = match segments[0] {
            "crate" | "roger" => {
                segments.remove(0);
                Vec::new()
            }
            "super" | "self" => {
                let mut base = here.clone();
                let mut ups: usize = 0;
                while segments.first() == Some(&"super") {
                    segments.remove(0);
                    ups += 1;
                }
                if segments.first() == Some(&"self") {
                    segments.remove(0);
                }
                for _ in 0..ups.saturating_sub(depth) {
                    base.pop();
                }
                base
            }
            first => {
                let mut child = here.clone();
                child.push(first.to_string());
                if !self.modules.contains_key(&child) {
                    return None;
                }
                here.clone()
            }
        };
        // A path that names no deeper file names an item of the module it reached.
        let mut found = self.modules.get(&full);
        for segment in segments {
            full.push(segment.to_string());
            match self.modules.get(&full) {
                Some(file) => found = Some(file),
                None => break,
            }
        }
        found
    }

    /// Each file's imports of other files, leaving out a child's reach up to its ancestors.
    fn edges(&self, sources: &BTreeMap<String, String>) -> BTreeMap<&String, BTreeSet<&String>> {
        let mut edges: BTreeMap<&String, BTreeSet<&String>> = BTreeMap::new();
        for (file, source) in sources {
            let file = self.files.get_key_value(file).unwrap().0;
            let entry = edges.entry(file).or_default();
            for (path, depth) in named_paths(source) {
                let Some(target) = self.resolve(file, &path, depth) else {
                    continue;
                };
                let (mine, theirs) = (&self.files[file], &self.files[target]);
                if target != file && !mine.starts_with(theirs) {
                    entry.insert(target);
                }
            }
        }
        edges
    }
}

/// Circles in the graph (its strongly connected parts of more than one file), each sorted.
fn circles<'a>(edges: &BTreeMap<&'a String, BTreeSet<&'a String>>) -> Vec<Vec<&'a String>> {
    // Tarjan's algorithm, iteratively.
    let nodes: Vec<&String> = edges.keys().copied().collect();
    let index_of: BTreeMap<&String, usize> =
        nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let n = nodes.len();
    let (mut index, mut low, mut on_stack) = (vec![usize::MAX; n], vec![0; n], vec![false; n]);
    let (mut stack, mut next, mut found) = (Vec::new(), 0, Vec::new());
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut calls: Vec<(usize, Vec<usize>)> = Vec::new();
        let successors = |v: usize| -> Vec<usize> {
            edges[nodes[v]]
                .iter()
                .filter_map(|w| index_of.get(*w).copied())
                .collect()
        };
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        calls.push((root, successors(root)));
        while let Some((v, pending)) = calls.last_mut() {
            let v = *v;
            if let Some(w) = pending.pop() {
                if index[w] == usize::MAX {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    calls.push((w, successors(w)));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            calls.pop();
            if let Some((parent, _)) = calls.last() {
                low[*parent] = low[*parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut part = Vec::new();
                loop {
                    let w = stack.pop().unwrap();
                    on_stack[w] = false;
                    part.push(nodes[w]);
                    if w == v {
                        break;
                    }
                }
                if part.len() > 1 {
                    part.sort();
                    found.push(part);
                }
            }
        }
    }
    found.sort();
    found
}

#[test]
fn no_file_imports_from_a_higher_layer() {
    let (krate, sources) = read_crate();
    let rank = |file: &String| {
        let top = &krate.files[file][0];
        LAYERS
            .iter()
            .position(|layer| layer == top)
            .unwrap_or_else(|| panic!("{file}: its module {top} has no layer in LAYERS"))
    };
    let mut wrong = Vec::new();
    for (file, targets) in krate.edges(&sources) {
        for target in targets {
            if rank(target) > rank(file) {
                wrong.push(format!("{file} -> {target}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports from a higher layer:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn no_files_import_each_other_in_a_circle() {
    let (krate, sources) = read_crate();
    let edges = krate.edges(&sources);
    let found: Vec<Vec<&str>> = circles(&edges)
        .into_iter()
        .map(|part| part.into_iter().map(String::as_str).collect())
        .collect();
    let known: Vec<Vec<&str>> = KNOWN_CIRCLES.iter().map(|c| c.to_vec()).collect();
    let new: Vec<_> = found.iter().filter(|c| !known.contains(c)).collect();
    let gone: Vec<_> = known.iter().filter(|c| !found.contains(c)).collect();
    assert!(
        new.is_empty() && gone.is_empty(),
        "circles of imports not in KNOWN_CIRCLES: {new:#?}\nKNOWN_CIRCLES no longer found (take them out): {gone:#?}"
    );
}

/// The reader itself: a circle and an upward import it must see, and a parent it must not count.
#[test]
fn the_reader_sees_use_trees_and_paths() {
    assert_eq!(
        expand("crate::a::{b, c::{d, e as f}, self}"),
        [
            "crate::a::b",
            "crate::a::c::d",
            "crate::a::c::e",
            "crate::a"
        ]
    );
    let source = "use super::x;\nfn f() { crate::y::z(); }\n#[cfg(test)]\nmod tests {\n    use super::*;\n    use super::super::w;\n}\n";
    assert_eq!(
        named_paths(source),
        [
            ("super::x".to_string(), 0),
            ("crate::y::z".to_string(), 0),
            ("super::*".to_string(), 1),
            ("super::super::w".to_string(), 1)
        ]
    );
    let files: BTreeMap<String, ModulePath> = [
        ("src/a/mod.rs", vec!["a"]),
        ("src/a/b.rs", vec!["a", "b"]),
        ("src/a/c.rs", vec!["a", "c"]),
        ("src/z.rs", vec!["z"]),
    ]
    .into_iter()
    .map(|(f, p)| (f.to_string(), p.into_iter().map(str::to_string).collect()))
    .collect();
    let modules = files.iter().map(|(f, p)| (p.clone(), f.clone())).collect();
    let krate = Crate { files, modules };
    let sources: BTreeMap<String, String> = [
        ("src/a/mod.rs", "mod b;\nmod c;\npub use b::Thing;\n"),
        ("src/a/b.rs", "use super::c::Other;\nuse super::Shared;\n"),
        (
            "src/a/c.rs",
            "use crate::a::b::Thing;\nuse crate::z::Top;\n",
        ),
        ("src/z.rs", "pub struct Top;\n"),
    ]
    .into_iter()
    .map(|(f, s)| (f.to_string(), s.to_string()))
    .collect();
    let edges = krate.edges(&sources);
    let found = circles(&edges);
    assert_eq!(
        found,
        [vec!["src/a/b.rs", "src/a/c.rs"]],
        "b and c import each other; b's use of its parent is not counted"
    );
    assert!(edges[&"src/a/c.rs".to_string()].contains(&"src/z.rs".to_string()));
}
