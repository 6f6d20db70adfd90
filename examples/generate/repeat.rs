//! A real SMD or ASE made larger by repeating its content until the file reaches a size. SMD: the triangle
//! lines between `triangles` and its `end` (same mesh drawn many times over itself, so welding finds many
//! identical corners, as in the original). ASE: every top-level object block (`*GEOMOBJECT`, `*HELPEROBJECT`,
//! ... and `*MESH_SOFTSKINVERTS`), with every node name (`*NODE_NAME`, `*NODE_PARENT`, the skin's mesh name)
//! suffixed by the copy number so that each copy is a scene of its own with unique names.

pub fn main(args: &[String]) {
    let (Some(src), Some(out), Some(size)) =
        (args.first(), args.get(1), args.get(2).and_then(|s| s.parse::<f64>().ok()))
    else {
        eprintln!("usage: generate repeat SRC OUT SIZE_MB");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(src).unwrap_or_else(|e| panic!("{src}: {e}"));
    let target = (size * 1_000_000.0) as usize;
    let lower = src.to_ascii_lowercase();
    let out_text = if lower.ends_with(".smd") { smd(&text, target) } else { ase(&text, target) };
    std::fs::write(out, &out_text).unwrap_or_else(|e| panic!("{out}: {e}"));
    eprintln!("{out}: {} bytes", out_text.len());
}

fn smd(text: &str, target: usize) -> String {
    let start = text.find("\ntriangles").map(|i| i + "\ntriangles".len()).expect("an SMD with triangles");
    let body_start = start + text[start..].find('\n').expect("a line after `triangles`") + 1;
    let end = body_start + text[body_start..].find("\nend").expect("`end` after the triangles") + 1;
    let (head, body, tail) = (&text[..body_start], &text[body_start..end], &text[end..]);
    let copies = (target.saturating_sub(head.len() + tail.len()) / body.len().max(1)).max(1);
    let mut s = String::with_capacity(head.len() + body.len() * copies + tail.len());
    s.push_str(head);
    for _ in 0..copies {
        s.push_str(body);
    }
    s.push_str(tail);
    s
}

/// Top-level blocks that are scene objects (repeated); the rest (scene, materials) is written once.
fn is_object(line: &str) -> bool {
    ["*GEOMOBJECT", "*HELPEROBJECT", "*SHAPEOBJECT", "*CAMERAOBJECT", "*LIGHTOBJECT", "*MESH_SOFTSKINVERTS"]
        .iter()
        .any(|k| line.starts_with(k))
}

fn ase(text: &str, target: usize) -> String {
    // Split into top-level blocks by brace depth, line by line.
    let mut head = String::new();
    let mut objects = Vec::new();
    let mut current = String::new();
    let mut depth = 0i32;
    let mut in_object = false;
    for line in text.split_inclusive('\n') {
        if depth == 0 {
            in_object = is_object(line);
        }
        if in_object {
            current.push_str(line)
        } else {
            head.push_str(line)
        }
        depth += line.matches('{').count() as i32 - line.matches('}').count() as i32;
        if depth == 0 && in_object {
            objects.push(std::mem::take(&mut current));
        }
    }
    let body_len: usize = objects.iter().map(String::len).sum::<usize>().max(1);
    let copies = (target.saturating_sub(head.len()) / body_len).max(1);
    let mut s = String::with_capacity(head.len() + (body_len + 64) * copies);
    s.push_str(&head);
    for copy in 0..copies {
        for block in &objects {
            if copy == 0 {
                s.push_str(block);
            } else {
                rename(&mut s, block, copy);
            }
        }
    }
    s
}

/// `block` with every node name suffixed `_<copy>`.
fn rename(out: &mut String, block: &str, copy: usize) {
    let mut lines = block.split_inclusive('\n');
    let skin = block.starts_with("*MESH_SOFTSKINVERTS");
    if skin {
        // Header line, then the mesh name on a line of its own.
        out.push_str(lines.next().unwrap_or(""));
        if let Some(name) = lines.next() {
            out.push_str(&format!("{}_{copy}\n", name.trim_end()));
        }
    }
    for line in lines {
        let t = line.trim_start();
        let named = t.starts_with("*NODE_NAME") || t.starts_with("*NODE_PARENT") || (skin && line.contains('"'));
        if !named {
            out.push_str(line);
            continue;
        }
        // Every quoted name on the line gets the suffix.
        let mut quote = false;
        for ch in line.chars() {
            if ch == '"' {
                if quote {
                    out.push_str(&format!("_{copy}"));
                }
                quote = !quote;
            }
            out.push(ch);
        }
    }
}
