mod common;
#[test]
fn probe() {
    let dir = common::corpus().unwrap().join("mdl/hl1/compiled_models");
    for f in [
        "man.mdl",
        "alpha_test.mdl",
        "blend_additive.mdl",
        "chrome_sphere.mdl",
        "sequence_transitions.mdl",
        "unnamed_bones.mdl",
        "manT.mdl",
        "man01.mdl",
    ] {
        match bonescope::io::load_path(&dir.join(f), &Default::default()) {
            Ok(a) => {
                println!("== {f}: bones {:?}", a.skeleton.names);
                println!(
                    "  meshes {} verts {} tris {} materials {:?}",
                    a.meshes.len(),
                    a.vertex_count(),
                    a.triangle_count(),
                    a.materials
                        .iter()
                        .map(|m| (
                            &m.name,
                            m.alpha,
                            m.chrome,
                            m.texture.as_ref().map(|t| t.pixels.as_ref().map(|p| (p.width, p.height)))
                        ))
                        .collect::<Vec<_>>()
                );
                for c in &a.clips {
                    println!(
                        "  clip {} {} frames {} fps dur {} blend {:?} keys {:?}",
                        c.name,
                        c.frame_count,
                        c.frame_rate,
                        c.duration,
                        c.script.as_ref().and_then(|s| s.blend.as_ref()).map(|b| (b.animations.len(), b.parameters)),
                        c.callback_keys
                    );
                }
                for w in &a.warnings {
                    println!("  warning {w}");
                }
                for r in &a.readings {
                    println!("  reading {r}");
                }
                let s = a.model_script.as_ref().unwrap();
                println!(
                    "  groups {:?}",
                    s.body_groups
                        .iter()
                        .map(|g| (&g.name, g.choices.iter().map(|c| (&c.name, &c.meshes)).collect::<Vec<_>>()))
                        .collect::<Vec<_>>()
                );
                println!("  skins {:?}", s.skin_families);
                println!("  ctl {:?}", s.controllers);
                println!(
                    "  hit {:?}\n  att {:?}\n  eye {:?} bbox {:?} trans {:?}",
                    s.hitboxes, s.attachments, s.eye_position, s.bbox, s.transition_graph
                );
                for q in &s.sequences {
                    println!(
                        "  seq {} {:?} {:?} {:?} {:?} {:?}",
                        q.name, q.activity, q.motion, q.blends, q.options, q.events
                    );
                }
            }
            Err(e) => println!("== {f}: error {e}"),
        }
    }
}
#[test]
fn probe_qc() {
    let p = common::corpus().unwrap().join("mdl/hl1/models/man/man.qc");
    let a = bonescope::io::load_path(&p, &Default::default()).unwrap();
    println!("bones {:?}", a.skeleton.names);
    println!(
        "materials {:?}",
        a.materials.iter().map(|m| (&m.name, m.texture.as_ref().map(|t| &t.path))).collect::<Vec<_>>()
    );
    let s = a.model_script.as_ref().unwrap();
    println!("skins {:?}\nctl {:?}", s.skin_families, s.controllers);
    for c in &a.clips {
        println!(
            "clip {} {} blend {:?}",
            c.name,
            c.frame_count,
            c.script.as_ref().and_then(|s| s.blend.as_ref()).map(|b| (b.animations.len(), b.parameters))
        );
    }
    for w in &a.warnings {
        println!("warning {w}");
    }
}
#[test]
fn probe_chrome() {
    let c = common::corpus().unwrap().join("mdl/hl1");
    let q = bonescope::io::load_path(&c.join("models/chrome_sphere/chrome_sphere.qc"), &Default::default()).unwrap();
    let m = bonescope::io::load_path(&c.join("compiled_models/chrome_sphere.mdl"), &Default::default()).unwrap();
    for f in [0usize, 48, 49, 50] {
        for (label, a) in [("qc", &q), ("mdl", &m)] {
            let clip = &a.clips[0];
            let b = a.skeleton.find("Bone").unwrap();
            let t = clip.track_for("Bone").unwrap();
            let r = t.rotation.values.get(f).copied().unwrap_or(t.rotation.values[0]);
            let (z, y, x) = r.to_euler(glam::EulerRot::ZYX);
            println!("{label} f{f} b{b} times {:?} euler x{x} y{y} z{z}", t.rotation.times.get(f));
        }
    }
}
