//! Builds the web front end (`web/`, TypeScript + Vite) with npm when it is missing or older
//! than its sources, and generates the table of files the server embeds.
//!
//! `BUGHOUSE_WEB_DIST=DIR` embeds an already built front end from DIR instead (for packagers
//! who build it separately); nothing is built then.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

fn newest(path: &Path) -> Option<SystemTime> {
    let meta = fs::metadata(path).ok()?;
    if meta.is_dir() {
        if path
            .file_name()
            .is_some_and(|n| n == "node_modules" || n == "dist")
        {
            return None;
        }
        fs::read_dir(path)
            .ok()?
            .filter_map(|e| e.ok())
            .filter_map(|e| newest(&e.path()))
            .max()
    } else {
        meta.modified().ok()
    }
}

fn npm(web: &Path, args: &[&str]) {
    let status = Command::new("npm")
        .args(args)
        .current_dir(web)
        .status()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run npm to build the web front end ({e}); install Node.js and npm, or set \
                 BUGHOUSE_WEB_DIST to a built front end"
            )
        });
    assert!(
        status.success(),
        "`npm {}` failed in {}: see its output above",
        args.join(" "),
        web.display()
    );
}

fn collect(dir: &Path, base: &Path, out: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(|e| e.ok()).collect();
    entries.sort_by_key(|e| e.path());
    for e in entries {
        let p = e.path();
        if p.is_dir() {
            collect(&p, base, out);
        } else if let Ok(rel) = p.strip_prefix(base) {
            out.push((rel.to_string_lossy().replace('\\', "/"), p.clone()));
        }
    }
}

fn mime(name: &str) -> &'static str {
    match name.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "json" => "application/json",
        "woff2" => "font/woff2",
        "woff" => "font/woff",
        "wav" => "audio/wav",
        "mp3" => "audio/mpeg",
        "ogg" => "audio/ogg",
        _ => "application/octet-stream",
    }
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let web = manifest.join("../../web");
    println!("cargo:rerun-if-env-changed=BUGHOUSE_WEB_DIST");
    let dist = match std::env::var_os("BUGHOUSE_WEB_DIST").filter(|d| !d.is_empty()) {
        Some(dir) => PathBuf::from(dir),
        None => {
            for watched in [
                "src",
                "index.html",
                "package.json",
                "package-lock.json",
                "vite.config.ts",
                "tsconfig.json",
                "public",
            ] {
                println!("cargo:rerun-if-changed={}", web.join(watched).display());
            }
            let dist = web.join("dist");
            let built = fs::metadata(dist.join("index.html"))
                .and_then(|m| m.modified())
                .ok();
            let sources = newest(&web);
            let stale = match (built, sources) {
                (Some(b), Some(s)) => s > b,
                _ => true,
            };
            if stale {
                if !web.join("node_modules").is_dir() {
                    if web.join("package-lock.json").is_file() {
                        npm(&web, &["ci", "--no-audit", "--no-fund"]);
                    } else {
                        npm(&web, &["install", "--no-audit", "--no-fund"]);
                    }
                }
                npm(&web, &["run", "build"]);
            }
            dist
        }
    };
    let mut files = Vec::new();
    collect(&dist, &dist, &mut files);
    assert!(
        files.iter().any(|(name, _)| name == "index.html"),
        "the web front end in {} has no index.html",
        dist.display()
    );
    let mut code = String::from("/// The embedded front end: (path, content type, bytes).\npub static FILES: &[(&str, &str, &[u8])] = &[\n");
    for (name, path) in &files {
        println!("cargo:rerun-if-changed={}", path.display());
        code.push_str(&format!(
            "    ({name:?}, {:?}, include_bytes!({:?})),\n",
            mime(name),
            path.display().to_string()
        ));
    }
    code.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo")).join("assets.rs");
    fs::write(out, code).expect("OUT_DIR is writable");
}
