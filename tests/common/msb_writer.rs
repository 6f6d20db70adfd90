// A compiled-model-script (MSB) writer for the tests (the program only reads them): a parsed model script
// written as the engine's compiler writes it, as far as the corpus's `waran.msb` shows — chunks of a `u16`
// type and a `u32` length, strings ending in `\n`, names upper case, `meshAndTree` without its `.ASC`, the
// defaults written out (fps 25, collision volume scale 1, sound ranges 2500 and 1000, particle index 0), a
// sound's EMPTY_SLOT as the float 0 (1 without it). Also `script_summary`, what two reads of one script are
// compared by.

use bonescope::scene::{ModelScript, SequenceKind};

fn chunk(out: &mut Vec<u8>, kind: u16, body: &[u8]) {
    out.extend(kind.to_le_bytes());
    out.extend((body.len() as u32).to_le_bytes());
    out.extend_from_slice(body);
}

struct Body(Vec<u8>);

impl Body {
    fn new() -> Self {
        Body(Vec::new())
    }
    fn s(mut self, text: &str) -> Self {
        self.0.extend(text.to_uppercase().as_bytes());
        self.0.push(b'\n');
        self
    }
    fn u(mut self, v: u32) -> Self {
        self.0.extend(v.to_le_bytes());
        self
    }
    fn i(mut self, v: i32) -> Self {
        self.0.extend(v.to_le_bytes());
        self
    }
    fn f(mut self, v: f32) -> Self {
        self.0.extend(v.to_le_bytes());
        self
    }
}

/// `R:2000`-style option `name` among `args`.
fn option(args: &[String], name: &str) -> Option<f32> {
    args.iter().find_map(|a| a.strip_prefix(name).and_then(|v| v.parse().ok()))
}

/// The MSB of `script`, whose `meshAndTree` is `skeleton` (name, uses its mesh), compiled from `source`.
pub fn write_msb(script: &ModelScript, skeleton: Option<(&str, bool)>, source: &str) -> Vec<u8> {
    let mut out = Vec::new();
    chunk(&mut out, 0xF000, &Body::new().u(1).s("\\_WORK\\DATA\\ANIMS\\").0);
    let date = [0xD2u8, 7, 0, 0, 8, 0, 28, 0, 12, 0, 50, 0, 52, 0, 0, 0];
    let mut source_body = date.to_vec();
    source_body.extend(Body::new().s(&format!("\\_WORK\\DATA\\ANIMS\\{source}")).0);
    chunk(&mut out, 0xF100, &source_body);
    chunk(&mut out, 0xF200, &[]);
    if let Some((name, use_mesh)) = skeleton {
        let stem = name.strip_suffix(".asc").or_else(|| name.strip_suffix(".ASC")).unwrap_or(name);
        chunk(&mut out, 0xF300, &Body::new().u(u32::from(!use_mesh)).s(stem).0);
    }
    for group in script.body_groups.iter().filter(|g| g.name == "registerMesh") {
        for choice in &group.choices {
            chunk(&mut out, 0xF400, &Body::new().s(&choice.name).0);
        }
    }
    chunk(&mut out, 0xF500, &[]);
    for seq in &script.sequences {
        let next = seq.next.clone().unwrap_or_default();
        let direction = if seq.reversed { "R" } else { "F" };
        match &seq.kind {
            SequenceKind::Alias { of } => {
                let body = Body::new()
                    .s(&seq.name)
                    .i(seq.layer.unwrap_or(1))
                    .s(&next)
                    .f(seq.blend_in)
                    .f(seq.blend_out)
                    .s(&seq.flags)
                    .s(of)
                    .s(direction);
                chunk(&mut out, 0xF530, &body.0);
            }
            _ => {
                let body = Body::new()
                    .s(&seq.name)
                    .i(seq.layer.unwrap_or(1))
                    .s(&next)
                    .f(seq.blend_in)
                    .f(seq.blend_out)
                    .s(&seq.flags)
                    .s(seq.files.first().map_or("", String::as_str))
                    .s(direction)
                    .i(seq.first_frame.unwrap_or(0))
                    .i(seq.last_frame.unwrap_or(0))
                    .f(seq.fps)
                    .f(0.0)
                    .f(seq.collision_scale.unwrap_or(1.0));
                chunk(&mut out, 0xF520, &body.0);
            }
        }
        if seq.events.is_empty() {
            continue;
        }
        chunk(&mut out, 0xF5A0, &Body::new().u(seq.events.len() as u32).0);
        for e in &seq.events {
            let a = &e.args;
            let kind = e.kind.to_ascii_lowercase();
            let frame = Body::new().i(e.frame);
            match kind.as_str() {
                "eventsfx" | "eventsfxgrnd" => {
                    let (code, default) = if kind == "eventsfx" { (0xF5A1, 2500.0) } else { (0xF5A2, 1000.0) };
                    let slot = if a.iter().any(|x| x.eq_ignore_ascii_case("EMPTY_SLOT")) { 0.0 } else { 1.0 };
                    let body = frame.s(&a[0]).f(option(a, "R:").unwrap_or(default)).f(slot);
                    chunk(&mut out, code, &body.0);
                }
                "eventtag" => {
                    let mut body = frame.s(&a[0]);
                    for k in 1..5 {
                        body = body.s(a.get(k).map_or("", String::as_str));
                    }
                    chunk(&mut out, 0xF5A3, &body.0);
                }
                "eventpfx" => {
                    let (index, rest) = match a[0].parse::<i32>() {
                        Ok(i) => (i, &a[1..]),
                        Err(_) => (0, &a[..]),
                    };
                    let attach = rest.iter().any(|x| x.eq_ignore_ascii_case("ATTACH"));
                    let body =
                        frame.i(index).s(&rest[0]).s(rest.get(1).map_or("", String::as_str)).u(u32::from(attach));
                    chunk(&mut out, 0xF5A4, &body.0);
                }
                "eventpfxstop" => chunk(&mut out, 0xF5A5, &frame.i(a[0].parse().unwrap()).0),
                "eventmmstartani" => {
                    let body = frame.s(&a[0]).s(a.get(1).map_or("", String::as_str)).f(1.0).f(0.0);
                    chunk(&mut out, 0xF5A9, &body.0);
                }
                "eventcamtremor" => {
                    let mut body = frame;
                    for value in a.iter().take(4) {
                        body = body.i(value.parse().unwrap());
                    }
                    chunk(&mut out, 0xF5AA, &body.0);
                }
                other => panic!("the test writer has no chunk for `{other}`"),
            }
        }
        chunk(&mut out, 0xF5AF, &[]);
    }
    for b in &script.ani_blends {
        chunk(&mut out, 0xF540, &Body::new().s(&b.name).s(&b.next).f(b.blend_in).f(b.blend_out).0);
    }
    for c in &script.ani_combs {
        let body = Body::new()
            .s(&c.name)
            .i(c.layer)
            .s(&c.next)
            .f(c.blend_in)
            .f(c.blend_out)
            .s(&c.flags)
            .s(&c.prefix)
            .i(c.count);
        chunk(&mut out, 0xF570, &body.0);
    }
    for d in &script.ani_disabled {
        chunk(&mut out, 0xF580, &Body::new().s(d).0);
    }
    for t in &script.model_tags {
        chunk(&mut out, 0xF590, &Body::new().i(0).s(&t.kind).s(&t.bone).0);
    }
    chunk(&mut out, 0xF5FF, &[]);
    chunk(&mut out, 0xF2FF, &[]);
    chunk(&mut out, 0xFFFF, &[]);
    out
}

/// Everything a script says, one line per item, names upper case (the compiler's), without line numbers:
/// what two reads of one script must agree on.
pub fn script_summary(script: &ModelScript) -> Vec<String> {
    let up = |s: &str| s.to_uppercase();
    let mut out = vec![format!("model {}", up(&script.name))];
    for g in &script.body_groups {
        for c in &g.choices {
            out.push(format!("{} {}", g.name, up(&c.name)));
        }
    }
    for s in &script.sequences {
        let kind = match &s.kind {
            SequenceKind::Alias { of } => format!("alias of {}", up(of)),
            other => format!("{other:?}"),
        };
        out.push(format!(
            "{} {kind} files {:?} fps {} loop {} frames {:?}-{:?} reversed {} flags {} layer {:?} next {:?} blend {} {} \
             cvs {:?}",
            up(&s.name),
            s.files.iter().map(|f| up(f)).collect::<Vec<_>>(),
            s.fps,
            s.looping,
            s.first_frame,
            s.last_frame,
            s.reversed,
            up(&s.flags),
            s.layer,
            s.next.as_deref().map(up),
            s.blend_in,
            s.blend_out,
            s.collision_scale,
        ));
        for e in &s.events {
            out.push(format!(
                "  {} {} {} {:?}",
                e.frame,
                up(&e.kind),
                up(&e.text),
                e.args.iter().map(|a| up(a)).collect::<Vec<_>>()
            ));
        }
    }
    for b in &script.ani_blends {
        out.push(format!("blend {} {} {} {}", up(&b.name), up(&b.next), b.blend_in, b.blend_out));
    }
    for c in &script.ani_combs {
        out.push(format!(
            "comb {} {} {} {} {} {} {} {}",
            up(&c.name),
            c.layer,
            up(&c.next),
            c.blend_in,
            c.blend_out,
            up(&c.flags),
            up(&c.prefix),
            c.count
        ));
    }
    out.extend(script.ani_disabled.iter().map(|d| format!("disable {}", up(d))));
    out.extend(script.model_tags.iter().map(|t| format!("tag {} {}", up(&t.kind), up(&t.bone))));
    out
}
