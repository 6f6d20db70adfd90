//! Compiled GoldSrc models (MDL version 10) against the QC sources studiomdl made them from, and against
//! hostile bytes.
//!
//! Every corpus QC under `mdl/hl1/models/` names its MDL with `$modelname`; both are loaded and must describe the
//! same character: bones and parents, bind pose, meshes, sequences (names, frames, rates, loop flags,
//! activities, events), hitboxes, attachments, body groups, skin families, bone controllers, the eye position,
//! and the pose of every bone at every frame of every sequence and blend.
//!
//! The pose bound is the MDL's quantisation. studiomdl stores each channel of a frame as a 16-bit step count from
//! the bone's default value, `value = (source − default) / scale`, converted to `short` by C truncation toward
//! zero (`SimplifyModel`, "reduce animations"), with one `scale` per bone and channel chosen so the largest
//! value fits. So a decoded channel is within one `scale` of the source: position channels within the bone's
//! `scale[0..3]` (model units), each Euler angle within `scale[3..6]` (radians), which bounds the rotation's
//! angle by their sum. The scales are read from the file's bone table for the bound (plus 1e-4 for the
//! floating-point path in between).
//!
//! What studiomdl changes on purpose, each checked as it does it (Half-Life SDK `utils/studiomdl/studiomdl.c`):
//! - bones no vertex uses (and that are no used bone's parent) are dropped (`SimplifyModel`, "find used
//!   bones"); the MDL's bones are the source's used ones, parents kept;
//! - every sequence's root bones are turned by 90° about Z (`Grab_Animation`, `zrotation`) and the eye
//!   position stored as `(−y, x, z)` (`Cmd_Eyeposition`); the reader turns them back, so they compare as written;
//! - a looping sequence's last frame is made its first (`OptimizeAnimations`, "force looping animations to be
//!   looping"), except on the `LX`/`LY`/`LZ` axes: the MDL's last frame is compared with the source's first;
//! - linear motion of `LX`… sequences is taken out of the roots (`ExtractMotion`) — added back by the reader;
//! - vertex positions are cut to two decimals in the bone's frame (`lookup_vertex`: `(int)(v · 100) / 100`),
//!   so bind-pose vertices are within 0.01 per axis of the source's;
//! - texture coordinates become texels `s = (int)(u · (width − 1))` on a texture widened to a multiple of 4,
//!   `t` counted from the top (`TextureCoordRanges`, `ResetTextureCoordRanges`, `GetSkinWidth`);
//! - event frames count from the sequence's first frame (`WriteSequenceInfo`: `frame − frameoffset`);
//! - with no `$hbox`, hitboxes are made from each bone's vertices (`SimplifyModel`, "find intersection box
//!   volume for each bone"): checked to sit on bones that are there;
//! - every `blend` option of a `$sequence` is written into the first blend slot (`Cmd_Sequence`), so a two-
//!   parameter blend's MDL names only the last control given, for parameter 0;
//! - attachments are written without their names (`WriteBoneInfo`): the reader names them by index, as a QC
//!   names them.
//!
//! The corpus's `unnamed_bones.mdl` (assimp's test data) has some bone names removed on purpose; those bones are
//! matched by their place in the table.

mod common;

use std::path::{Path, PathBuf};

use bonescope::anim::ClipBinding;
use bonescope::io::{LoadErrorKind, LoadOptions, load_path};
use bonescope::scene::{Asset, Clip, Format, ModelScript, Position, Transform};
use glam::{Quat, Vec3};

#[global_allocator]
static ALLOCATOR: common::CountingAllocator = common::CountingAllocator;

/// Every corpus QC with the MDL its `$modelname` names.
fn pairs() -> Vec<(PathBuf, PathBuf)> {
    let Some(corpus) = common::corpus() else { return Vec::new() };
    let models = corpus.join("mdl/hl1/models");
    let mut out = Vec::new();
    for dir in std::fs::read_dir(&models).unwrap().flatten() {
        for f in std::fs::read_dir(dir.path()).unwrap().flatten() {
            let qc = f.path();
            if qc.extension().is_some_and(|e| e == "qc") {
                let text = std::fs::read_to_string(&qc).unwrap();
                let name = text.lines().find_map(|l| l.trim().strip_prefix("$modelname")).unwrap();
                let name = name.trim().trim_matches('"');
                out.push((qc.clone(), qc.parent().unwrap().join(name)));
            }
        }
    }
    out.sort();
    out
}

fn script(asset: &Asset) -> &ModelScript {
    asset.model_script.as_deref().unwrap()
}

/// Each MDL bone's channel scales, read from the bone table (`mstudiobone_t.scale[6]` at byte 88 of each
/// 112-byte record), for the quantisation bound.
fn bone_scales(mdl: &Path) -> Vec<[f32; 6]> {
    let b = std::fs::read(mdl).unwrap();
    let int = |at: usize| i32::from_le_bytes(b[at..at + 4].try_into().unwrap()) as usize;
    let (count, index) = (int(140), int(144));
    (0..count)
        .map(|i| {
            let at = index + i * 112 + 88;
            std::array::from_fn(|c| f32::from_le_bytes(b[at + 4 * c..at + 4 * c + 4].try_into().unwrap()))
        })
        .collect()
}

/// The MDL bone standing for source bone `name`: by name, or by place in a model whose names were removed
/// (`unnamed_bones.mdl`; the reader names them as assimp does, `Bone`, `Bone_0`, …).
fn mdl_bone(mdl: &Asset, qc_used: &[String], name: &str) -> Option<usize> {
    let by_place = mdl.path.as_ref().is_some_and(|p| p.ends_with("unnamed_bones.mdl"));
    if by_place {
        return qc_used.iter().position(|n| n.eq_ignore_ascii_case(name)).filter(|&i| i < mdl.skeleton.len());
    }
    mdl.skeleton.names.iter().position(|n| n.eq_ignore_ascii_case(name))
}

/// The source's bones studiomdl keeps: those with weighted vertices and their ancestors, in the source's order.
fn used_bones(qc: &Asset) -> Vec<String> {
    let mut used = vec![false; qc.skeleton.len()];
    for mesh in &qc.meshes {
        for (j, w) in mesh.joints.iter().zip(&mesh.weights) {
            for k in 0..4 {
                if w[k] > 0.0 {
                    let mut b = Some(j[k] as usize);
                    while let Some(i) = b {
                        used[i] = true;
                        b = qc.skeleton.parents[i];
                    }
                }
            }
        }
    }
    (0..qc.skeleton.len()).filter(|&i| used[i]).map(|i| qc.skeleton.names[i].clone()).collect()
}

fn sample(asset: &Asset, clip: &Clip, frame: u32) -> Vec<Transform> {
    let mut out = vec![Transform::IDENTITY; asset.skeleton.len()];
    let t = (frame as f32 / clip.frame_rate).min(clip.duration);
    ClipBinding::new(&asset.skeleton, clip).sample(&asset.skeleton, clip, t, &mut out);
    out
}

/// The angle between two rotations, from the vector part of their difference (`acos` of a dot product near 1
/// loses everything below 1e-3 in single precision).
fn angle(a: Quat, b: Quat) -> f32 {
    let d = a * b.inverse();
    2.0 * d.xyz().length().min(1.0).asin()
}

#[test]
fn every_compiled_model_describes_the_character_of_its_source() {
    let _alone = common::alone();
    let pairs = pairs();
    if pairs.is_empty() {
        eprintln!("skipped: set BONESCOPE_CORPUS to run the MDL corpus tests");
        return;
    }
    assert_eq!(pairs.len(), 6, "{pairs:?}");
    let opts = LoadOptions::default();
    for (qc_path, mdl_path) in &pairs {
        let label = mdl_path.file_name().unwrap().to_string_lossy().into_owned();
        let qc = load_path(qc_path, &opts).unwrap_or_else(|e| panic!("{e}"));
        let mdl = load_path(mdl_path, &opts).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(mdl.format, Some(Format::HlMdl));
        assert!(mdl.warnings.iter().all(|w| !w.is_error()), "{label}: {:?}", mdl.warnings);
        let used = used_bones(&qc);

        // Bones: the source's used ones, with their parents.
        assert_eq!(mdl.skeleton.len(), used.len(), "{label}: {:?} vs {used:?}", mdl.skeleton.names);
        for name in &used {
            let q = qc.skeleton.find(name).unwrap();
            let m = mdl_bone(&mdl, &used, name).unwrap_or_else(|| panic!("{label}: bone {name} missing"));
            let parent_name = |a: &Asset, i: usize| a.skeleton.parents[i].map(|p| a.skeleton.names[p].clone());
            match (parent_name(&qc, q), mdl.skeleton.parents[m]) {
                (None, None) => {}
                (Some(p), Some(mp)) => assert_eq!(mdl_bone(&mdl, &used, &p), Some(mp), "{label}: parent of {name}"),
                other => panic!("{label}: parent of {name}: {other:?}"),
            }
            // Bind pose: the reference skeleton as written (floats, not quantised).
            let (a, b) = (qc.skeleton.bind_local[q], mdl.skeleton.bind_local[m]);
            assert!(a.translation.abs_diff_eq(b.translation, 1e-4), "{label}: bind position of {name}");
            assert!(angle(a.rotation, b.rotation) < 1e-4, "{label}: bind rotation of {name}");
        }

        // Meshes: each body choice's triangles, vertices within studiomdl's two decimals, texture coordinates
        // within its texel rounding, winding as the source's.
        let (qs, ms) = (script(&qc), script(&mdl));
        assert_eq!(qs.body_groups.len(), ms.body_groups.len(), "{label}");
        for (qg, mg) in qs.body_groups.iter().zip(&ms.body_groups) {
            assert_eq!(qg.name, mg.name, "{label}");
            let names = |g: &bonescope::scene::BodyGroup| g.choices.iter().map(|c| c.name.clone()).collect::<Vec<_>>();
            assert_eq!(names(qg), names(mg), "{label}");
            for (qc_choice, mdl_choice) in qg.choices.iter().zip(&mg.choices) {
                let tris =
                    |a: &Asset, meshes: &[usize]| meshes.iter().map(|&m| a.meshes[m].triangle_count()).sum::<usize>();
                assert_eq!(tris(&qc, &qc_choice.meshes), tris(&mdl, &mdl_choice.meshes), "{label}: {}", qc_choice.name);
                compare_meshes(&label, &qc, &qc_choice.meshes, &mdl, &mdl_choice.meshes);
            }
        }

        // Sequences.
        let names = |s: &ModelScript| s.sequences.iter().map(|q| q.name.clone()).collect::<Vec<_>>();
        assert_eq!(names(qs), names(ms), "{label}");
        for (q, m) in qs.sequences.iter().zip(&ms.sequences) {
            assert_eq!((q.frame_count, q.fps, q.looping), (m.frame_count, m.fps, m.looping), "{label}: {}", q.name);
            assert_eq!(q.activity, m.activity, "{label}: {}", q.name);
            let first = q.first_frame.unwrap_or(0);
            let events = |s: &bonescope::scene::ScriptSequence, offset: i32| {
                s.events.iter().map(|e| (e.frame - offset, e.kind.clone(), e.text.clone())).collect::<Vec<_>>()
            };
            assert_eq!(events(q, first), events(m, 0), "{label}: {} events", q.name);
            let motion =
                |s: &bonescope::scene::ScriptSequence| s.motion.iter().map(|f| f.to_uppercase()).collect::<Vec<_>>();
            assert_eq!(motion(q), motion(m), "{label}: {}", q.name);
            // Nodes and transitions are kept as the QC's options are.
            let nodes = |s: &bonescope::scene::ScriptSequence| {
                s.options
                    .iter()
                    .filter(|o| o.starts_with("node") || o.contains("transition"))
                    .cloned()
                    .collect::<Vec<_>>()
            };
            assert_eq!(nodes(q), nodes(m), "{label}: {}", q.name);
            // studiomdl writes each `blend` into slot 0: the last one written is what the MDL says.
            if let Some(last) = q.blends.last() {
                assert_eq!(m.blends[0].control, last.control.to_uppercase(), "{label}: {}", q.name);
                assert_eq!((m.blends[0].start, m.blends[0].end), (last.start, last.end), "{label}: {}", q.name);
                assert_eq!(m.blends.len(), q.blends.len(), "{label}: {}: parameters", q.name);
            }
        }

        // Poses at every frame, within the quantisation; blends too.
        let scales = bone_scales(mdl_path);
        for (qclip, mclip) in qc.clips.iter().zip(&mdl.clips) {
            assert_eq!(qclip.name, mclip.name, "{label}");
            assert_eq!(qclip.frame_count, mclip.frame_count, "{label}: {}", qclip.name);
            let looping = mclip.script.as_ref().is_some_and(|s| s.looping);
            let seq = ms.sequence(&mclip.name).unwrap();
            let lx = ["LX", "LY", "LZ"].map(|f| seq.motion.iter().any(|m| m == f));
            let qblends = qclip.script.as_ref().and_then(|s| s.blend.as_ref());
            let mblends = mclip.script.as_ref().and_then(|s| s.blend.as_ref());
            assert_eq!(
                qblends.map(|b| (b.animations.len(), b.parameters)),
                mblends.map(|b| (b.animations.len(), b.parameters)),
                "{label}: {}",
                qclip.name
            );
            let mut animations = vec![(qclip, mclip)];
            if let (Some(qb), Some(mb)) = (qblends, mblends) {
                animations.extend(qb.animations.iter().zip(&mb.animations));
            }
            for (b, (qa, ma)) in animations.iter().enumerate() {
                for frame in 0..mclip.frame_count {
                    let last = frame + 1 == mclip.frame_count && frame > 0;
                    let qpose = sample(&qc, qa, frame);
                    let qfirst = sample(&qc, qa, 0);
                    let mpose = sample(&mdl, ma, frame);
                    for name in &used {
                        let (q, m) = (qc.skeleton.find(name).unwrap(), mdl_bone(&mdl, &used, name).unwrap());
                        let s = scales[m];
                        let pos_bound = Vec3::new(s[0], s[1], s[2]) + Vec3::splat(1e-4);
                        let rot_bound = s[3] + s[4] + s[5] + 1e-4;
                        let expected_position = Vec3::from_array(std::array::from_fn(|c| {
                            if looping && last && !lx[c] { qfirst[q].translation[c] } else { qpose[q].translation[c] }
                        }));
                        let expected_rotation = if looping && last { qfirst[q].rotation } else { qpose[q].rotation };
                        let d = (mpose[m].translation - expected_position).abs();
                        assert!(
                            d.cmple(pos_bound).all(),
                            "{label}: {} blend {b} frame {frame} bone {name}: position off by {d} (bound {pos_bound})",
                            qclip.name
                        );
                        let a = angle(mpose[m].rotation, expected_rotation);
                        assert!(
                            a <= rot_bound,
                            "{label}: {} blend {b} frame {frame} bone {name}: rotation off by {a} rad (bound {rot_bound})",
                            qclip.name
                        );
                    }
                }
            }
        }

        // Hitboxes: as written, or made by studiomdl where the QC writes none.
        if qs.hitboxes.is_empty() {
            for h in &ms.hitboxes {
                assert!(mdl.skeleton.find(&h.bone).is_some(), "{label}: generated hitbox on {}", h.bone);
            }
        } else {
            let boxes = |s: &ModelScript| {
                s.hitboxes.iter().map(|h| (h.group, h.bone.to_lowercase(), h.min, h.max)).collect::<Vec<_>>()
            };
            assert_eq!(boxes(qs), boxes(ms), "{label}");
        }
        let attachments = |s: &ModelScript| {
            s.attachments.iter().map(|a| (a.name.clone(), a.bone.to_lowercase(), a.offset)).collect::<Vec<_>>()
        };
        assert_eq!(attachments(qs), attachments(ms), "{label}");
        assert_eq!(qs.eye_position.map(|e| (e * 1e4).round()), ms.eye_position.map(|e| (e * 1e4).round()), "{label}");
        if qs.bbox.is_some() {
            assert_eq!(qs.bbox, ms.bbox, "{label}");
        }
        // Controllers and skin families.
        let controllers = |s: &ModelScript| {
            s.controllers
                .iter()
                .map(|c| (c.index, c.bone.to_lowercase(), c.channel, c.start, c.end, c.wraps))
                .collect::<Vec<_>>()
        };
        assert_eq!(controllers(qs), controllers(ms), "{label}");
        let textures = |s: &ModelScript| {
            s.skin_families
                .iter()
                .map(|f| f.textures.iter().map(|t| t.to_lowercase()).collect::<Vec<_>>())
                .collect::<Vec<_>>()
        };
        assert_eq!(textures(qs), textures(ms), "{label}");
        for (qf, mf) in qs.skin_families.iter().zip(&ms.skin_families) {
            // Under each skin, every material a mesh is drawn with becomes the same texture in both.
            for mesh in &qc.meshes {
                for subset in &mesh.subsets {
                    let name = qc.materials[subset.material].name.to_lowercase();
                    let m = mdl.materials.iter().position(|m| m.name.to_lowercase() == name).unwrap();
                    assert_eq!(
                        qc.materials[qf.remap[subset.material]].name.to_lowercase(),
                        mdl.materials[mf.remap[m]].name.to_lowercase(),
                        "{label}: skin of {name}"
                    );
                }
            }
        }
    }
}

/// Each MDL triangle is a source triangle: the same corners in the same turning order (so the winding is the
/// source's), each within studiomdl's two decimals (0.01 per axis in the bone's frame: √3 · 0.01 however the bone
/// is turned), and the same texture layout — its edges measured in texels agree within 2 texels (the texture was
/// cropped to the part the meshes use and the coordinates moved with it, so they are compared as differences,
/// with the source's `(width − 1)` and `(height − 1)` scale).
fn compare_meshes(label: &str, qc: &Asset, qm: &[usize], mdl: &Asset, mm: &[usize]) {
    struct Tri {
        p: [Vec3; 3],
        uv: [glam::Vec2; 3],
        texels: glam::Vec2,
        chrome: bool,
    }
    let triangles = |a: &Asset, meshes: &[usize], source: bool| -> Vec<Tri> {
        let mut out = Vec::new();
        for &m in meshes {
            let mesh = &a.meshes[m];
            for subset in &mesh.subsets {
                let material = &a.materials[subset.material];
                let texels = match (&material.texture, source) {
                    (Some(t), false) => {
                        t.pixels.as_ref().map_or(glam::Vec2::ONE, |p| glam::Vec2::new(p.width as f32, p.height as f32))
                    }
                    (Some(t), true) => t.path.as_ref().map_or(glam::Vec2::ONE, |p| {
                        let b = std::fs::read(p).unwrap();
                        let dim = |at: usize| i32::from_le_bytes(b[at..at + 4].try_into().unwrap()).abs() as f32;
                        glam::Vec2::new(dim(18) - 1.0, dim(22) - 1.0)
                    }),
                    (None, _) => glam::Vec2::ONE,
                };
                let range = subset.first_index as usize..(subset.first_index + subset.index_count) as usize;
                for t in mesh.indices[range].chunks(3) {
                    let c = [t[0], t[1], t[2]].map(|i| i as usize);
                    out.push(Tri {
                        p: c.map(|i| mesh.positions[i]),
                        uv: c.map(|i| mesh.uvs[i]),
                        texels,
                        chrome: material.chrome,
                    });
                }
            }
        }
        out
    };
    let (source, compiled) = (triangles(qc, qm, true), triangles(mdl, mm, false));
    for (n, t) in compiled.iter().enumerate() {
        let matched = source.iter().any(|s| {
            (0..3).any(|r| {
                let at = |k: usize| (k + r) % 3;
                let close = (0..3).all(|k| s.p[at(k)].abs_diff_eq(t.p[k], 0.0175));
                let edge =
                    |tri_uv: [glam::Vec2; 3], scale: glam::Vec2, a: usize, b: usize| (tri_uv[b] - tri_uv[a]) * scale;
                let layout = t.chrome
                    || (0..3).all(|k| {
                        let ours = edge(t.uv, t.texels, k, (k + 1) % 3);
                        let theirs = edge(s.uv, s.texels, at(k), at((k + 1) % 3));
                        (ours - theirs).abs().cmple(glam::Vec2::splat(2.0)).all()
                    });
                close && layout
            })
        });
        assert!(
            matched,
            "{label}: triangle {n} at {:?} with texture coordinates {:?} has no source triangle",
            t.p, t.uv
        );
    }
}

#[test]
fn companions_are_found_in_any_case_and_missing_ones_cost_only_what_they_hold() {
    let _alone = common::alone();
    let Some(dir) = common::corpus().map(|c| c.join("mdl/hl1/compiled_models")) else { return };
    let files = bonescope::io::MemoryFiles::new();
    // Made on Windows: the companions' names in other case.
    files.insert("/m/MAN.mdl", std::fs::read(dir.join("man.mdl")).unwrap());
    files.insert("/m/mant.MDL", std::fs::read(dir.join("manT.mdl")).unwrap());
    let opts = LoadOptions { files: bonescope::io::Files::new(files.clone()), ..LoadOptions::default() };
    let man = load_path(Path::new("/m/MAN.mdl"), &opts).unwrap();
    assert!(man.materials.iter().all(|m| m.texture.as_ref().is_some_and(|t| t.pixels.is_some())));
    assert_eq!(script(&man).skin_families.len(), 2);
    // man01.mdl is missing: an error-level warning; every sequence still plays (group 1 holds none).
    assert!(man.warnings.iter().any(|w| w.is_error() && w.message.contains("MAN01.mdl")), "{:?}", man.warnings);
    assert_eq!(man.clips.len(), 3);

    // Without its texture file: checkers, said as an error-level warning naming the file.
    let alone = bonescope::io::MemoryFiles::new();
    alone.insert("/n/man.mdl", std::fs::read(dir.join("man.mdl")).unwrap());
    let opts = LoadOptions { files: bonescope::io::Files::new(alone), ..LoadOptions::default() };
    let bare = load_path(Path::new("/n/man.mdl"), &opts).unwrap();
    assert!(bare.warnings.iter().any(|w| w.is_error() && w.message.contains("manT.mdl")), "{:?}", bare.warnings);
    assert_eq!(bare.meshes.len(), man.meshes.len());
    assert!(bare.materials.iter().all(|m| m.texture.as_ref().is_some_and(|t| t.pixels.is_none() && t.path.is_none())));

    // A companion opened on its own says what it is and which model to open.
    for (companion, what) in [("manT.mdl", "texture file"), ("man01.mdl", "sequence group")] {
        let e = load_path(&dir.join(companion), &LoadOptions::default()).unwrap_err();
        assert!(e.message.contains(what) && e.message.contains("open man.mdl"), "{e}");
    }
}

/// Blend sequences mixed and bone controllers turned the same way pose a model and its source alike: the
/// controller mixes each one's four `arms_up` animations at the same blend parameters and adds the same neck
/// controller values; every bone's local pose agrees within the quantisation of its four animations (slerp and
/// lerp move no result further from its inputs' than the inputs are).
#[test]
fn blends_and_controllers_pose_a_model_and_its_source_alike() {
    let _alone = common::alone();
    let Some((qc_path, mdl_path)) = pairs().into_iter().find(|(q, _)| q.ends_with("man.qc")) else { return };
    let opts = LoadOptions::default();
    let (qc, mdl) = (load_path(&qc_path, &opts).unwrap(), load_path(&mdl_path, &opts).unwrap());
    let used = used_bones(&qc);
    let scales = bone_scales(&mdl_path);
    let values = [30.0, -20.0, 2.5];
    for parameters in [[0.0, 0.0], [1.0, 0.0], [0.3, 0.7], [1.0, 1.0]] {
        let pose = |asset: &Asset| {
            let mut ctrl = bonescope::anim::Controller::for_asset(asset);
            let set = ctrl.find_set("arms_up").unwrap();
            assert_eq!(ctrl.sets()[set].blend_count(), 4);
            ctrl.add_track(Some(set)).unwrap();
            ctrl.set_blend_parameters(set, parameters).unwrap();
            let controllers = &script(asset).controllers;
            ctrl.set_bone_adjustments(bonescope::anim::studio::bone_adjustments(&asset.skeleton, controllers, &values));
            let mut local = vec![Transform::IDENTITY; asset.skeleton.len()];
            ctrl.evaluate_local(&mut local).unwrap();
            local
        };
        let (q, m) = (pose(&qc), pose(&mdl));
        for name in &used {
            let (qi, mi) = (qc.skeleton.find(name).unwrap(), mdl.skeleton.find(name).unwrap());
            let s = scales[mi];
            let d = (q[qi].translation - m[mi].translation).abs();
            assert!(d.cmple(Vec3::new(s[0], s[1], s[2]) + Vec3::splat(1e-3)).all(), "{parameters:?} {name}: {d}");
            let a = angle(q[qi].rotation, m[mi].rotation);
            assert!(a <= s[3] + s[4] + s[5] + 1e-3, "{parameters:?} {name}: {a} rad");
        }
        // The neck was turned: not its pose without the controllers.
        let neck = mdl.skeleton.find("Neck").unwrap();
        let mut ctrl = bonescope::anim::Controller::for_asset(&mdl);
        let set = ctrl.find_set("arms_up").unwrap();
        ctrl.add_track(Some(set)).unwrap();
        ctrl.set_blend_parameters(set, parameters).unwrap();
        let mut still = vec![Transform::IDENTITY; mdl.skeleton.len()];
        ctrl.evaluate_local(&mut still).unwrap();
        assert!(angle(still[neck].rotation, m[neck].rotation) > 0.5, "the controllers turn the neck");
    }
}

/// The vertex and triangle counts assimp 5.2's importer (`assimp info`, Debian's assimp-utils) reports for the
/// corpus's models: the same triangles, and the same vertices once corners sharing vertex, normal and texel are
/// one.
#[test]
fn meshes_count_what_assimp_counts() {
    let _alone = common::alone();
    let Some(dir) = common::corpus().map(|c| c.join("mdl/hl1/compiled_models")) else { return };
    for (name, vertices, triangles) in [
        ("man.mdl", 239, 190),
        ("chrome_sphere.mdl", 242, 480),
        ("alpha_test.mdl", 24, 12),
        ("sequence_transitions.mdl", 3, 1),
        ("unnamed_bones.mdl", 192, 96),
        ("blend_additive.mdl", 6, 2),
    ] {
        let asset = load_path(&dir.join(name), &LoadOptions::default()).unwrap();
        assert_eq!((asset.vertex_count(), asset.triangle_count()), (vertices, triangles), "{name}");
    }
}

/// A site that serves files but no folder listings (the web page's reader without them): the companions are
/// asked for by their exact names, so they are found all the same.
#[test]
fn companions_are_asked_for_by_name_where_folders_cannot_be_listed() {
    #[derive(Debug)]
    struct NoListings(bonescope::io::MemoryFiles);
    impl bonescope::io::FileAccess for NoListings {
        fn read(&self, path: &Path) -> std::io::Result<bonescope::io::FileBytes> {
            self.0.read(path)
        }
        fn kind(&self, path: &Path) -> std::io::Result<bonescope::files::Kind> {
            self.0.kind(path)
        }
        fn list(&self, _dir: &Path) -> std::io::Result<Vec<bonescope::files::Entry>> {
            Err(std::io::Error::other("the server lists no folders"))
        }
    }
    let _alone = common::alone();
    let Some(dir) = common::corpus().map(|c| c.join("mdl/hl1/compiled_models")) else { return };
    let files = bonescope::io::MemoryFiles::new();
    for name in ["man.mdl", "manT.mdl", "man01.mdl"] {
        files.insert(format!("/site/{name}"), std::fs::read(dir.join(name)).unwrap());
    }
    let opts = LoadOptions { files: bonescope::io::Files::new(NoListings(files)), ..LoadOptions::default() };
    let man = load_path(Path::new("/site/man.mdl"), &opts).unwrap();
    assert!(man.warnings.is_empty(), "{:?}", man.warnings);
    assert!(man.materials.iter().all(|m| m.texture.as_ref().is_some_and(|t| t.pixels.is_some())));
}

#[test]
fn textures_flags_and_coordinates_are_as_the_engine_reads_them() {
    let _alone = common::alone();
    let Some(dir) = common::corpus().map(|c| c.join("mdl/hl1/compiled_models")) else { return };
    let load = |f: &str| load_path(&dir.join(f), &LoadOptions::default()).unwrap();
    let alpha = load("alpha_test.mdl");
    let material = &alpha.materials[0];
    assert!(matches!(material.alpha, bonescope::scene::AlphaMode::Mask { .. }));
    let pixels = material.texture.as_ref().unwrap().pixels.clone().unwrap();
    let holes = pixels.rgba.chunks(4).filter(|p| p[3] == 0).count();
    assert!(holes > 0 && holes < pixels.rgba.len() / 4, "masked: palette index 255 is a hole ({holes} pixels)");
    let additive = load("blend_additive.mdl");
    assert!(additive.materials.iter().all(|m| m.alpha == bonescope::scene::AlphaMode::Additive));
    let chrome = load("chrome_sphere.mdl");
    assert!(
        chrome.materials[0].chrome && chrome.materials[0].flat_shade,
        "studiomdl flags a *chrome* texture flat-shaded chrome"
    );
    // Texture coordinates are texels over the texture's size: never outside 0–1 for these models.
    for m in alpha.meshes.iter().chain(&additive.meshes) {
        assert!(m.uvs.iter().all(|uv| (0.0..=1.0).contains(&uv.x) && (0.0..=1.0).contains(&uv.y)));
    }
}

/// Xash3D's extensions are said, not guessed at: its header flags (bone weights, bone information) and texture
/// flags (a normal map) each name what is not shown, and the model loads.
#[test]
fn xash_extensions_are_named_in_warnings() {
    let _alone = common::alone();
    let Some(dir) = common::corpus().map(|c| c.join("mdl/hl1/compiled_models")) else { return };
    let mut bytes = std::fs::read(dir.join("alpha_test.mdl")).unwrap();
    bytes[136..140].copy_from_slice(&((1u32 << 31) | (1 << 30)).to_le_bytes());
    let texture_index = i32::from_le_bytes(bytes[184..188].try_into().unwrap()) as usize;
    bytes[texture_index + 64..texture_index + 68].copy_from_slice(&(0x40u32 | 0x80).to_le_bytes());
    let asset = bonescope::io::mdl::load(&bytes, None, &LoadOptions::default()).unwrap();
    let said = |what: &str| asset.warnings.iter().any(|w| w.message.contains(what));
    assert!(
        said("STUDIO_HAS_BONEWEIGHTS") && said("STUDIO_HAS_BONEINFO") && said("normal map"),
        "{:?}",
        asset.warnings
    );
    assert_eq!(asset.triangle_count(), 12);
}

/// Truncated copies, corrupted headers and counts: errors naming a byte, never a panic, never an allocation out of
/// proportion to the input.
#[test]
fn hostile_bytes_are_errors_naming_the_byte_without_large_allocations() {
    let _alone = common::alone();
    let Some(dir) = common::corpus().map(|c| c.join("mdl/hl1/compiled_models")) else { return };
    let guarded = |label: &str, bytes: &[u8]| {
        let (result, allocated) =
            common::allocations_of(|| bonescope::io::mdl::load(bytes, None, &LoadOptions::default()));
        assert!(
            allocated.largest <= bytes.len() * 64 + (1 << 20),
            "{label}: one allocation of {} bytes",
            allocated.largest
        );
        result
    };
    for name in ["man.mdl", "chrome_sphere.mdl", "sequence_transitions.mdl", "unnamed_bones.mdl", "blend_additive.mdl"]
    {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        guarded(name, &bytes).unwrap();
        // Every prefix: the header's length says it was cut off.
        for len in (0..bytes.len()).step_by(7) {
            let e = guarded(&format!("{name} cut to {len}"), &bytes[..len]).unwrap_err();
            assert!(matches!(e.position, Position::Byte(_)), "{name} cut to {len}: {e}");
        }
        // Every header field (the counts and offsets) set to huge and to negative values.
        for field in (72..244).step_by(4) {
            for value in [i32::MAX, -1, 0x7fff_0000, bytes.len() as i32] {
                let mut b = bytes.clone();
                b[field..field + 4].copy_from_slice(&value.to_le_bytes());
                if field == 72 {
                    continue;
                }
                if let Err(e) = guarded(&format!("{name} field {field} = {value}"), &b) {
                    assert!(matches!(e.position, Position::Byte(_)), "{name} field {field} = {value}: {e}");
                }
            }
        }
        // Random byte flips after the header.
        let mut rng = common::Rng(0x5eed ^ bytes.len() as u64);
        for _ in 0..400 {
            let mut b = bytes.clone();
            for _ in 0..4 {
                let at = 244 + rng.below(b.len() - 244);
                b[at] = rng.next() as u8;
            }
            let _ = guarded(&format!("{name} flipped"), &b);
        }
    }
    // A model without bones or meshes whose sequence claims two billion blends (found by the fuzzer): the blend count is
    // checked on its own, as no animation table sizes it.
    let mut bytes = std::fs::read(dir.join("sequence_transitions.mdl")).unwrap();
    bytes[140..144].copy_from_slice(&0i32.to_le_bytes());
    bytes[204..208].copy_from_slice(&0i32.to_le_bytes());
    let seq = i32::from_le_bytes(bytes[168..172].try_into().unwrap()) as usize;
    // `mstudioseqdesc_t.numblends` is at byte 120 of the record.
    bytes[seq + 120..seq + 124].copy_from_slice(&i32::MAX.to_le_bytes());
    match guarded("blends", &bytes) {
        Ok(_) => panic!("two billion blends loaded"),
        Err(e) => assert_eq!(e.position, Position::Byte(seq as u64 + 120), "{e}"),
    }
    // Not GoldSrc: a Source model's header, an unknown magic.
    let mut source = std::fs::read(dir.join("man.mdl")).unwrap();
    source[4..8].copy_from_slice(&48i32.to_le_bytes());
    let e = bonescope::io::mdl::load(&source, None, &LoadOptions::default()).unwrap_err();
    assert_eq!(e.kind, LoadErrorKind::Unsupported);
    assert!(e.message.contains("Source"), "{e}");
}

/// `bonescope check` on the folder of compiled models: each model a character, its texture and sequence-group
/// files part of it, not characters.
#[cfg(feature = "cli")]
#[test]
fn check_takes_each_compiled_model_for_a_character_and_its_companions_for_parts() {
    let Some(dir) = common::corpus().map(|c| c.join("mdl/hl1/compiled_models")) else { return };
    let json = std::env::temp_dir().join(format!("bonescope-mdl-check-{}.json", std::process::id()));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_bonescope"))
        .args(["check", dir.to_str().unwrap(), "--json", json.to_str().unwrap(), "--fail-on", "never"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let mut names: Vec<&str> =
        report["characters"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "alpha_test.mdl",
            "blend_additive.mdl",
            "chrome_sphere.mdl",
            "man.mdl",
            "sequence_transitions.mdl",
            "unnamed_bones.mdl"
        ]
    );
    assert_eq!(report["summary"]["files"], 6);
    assert_eq!(report["summary"]["other_files"], 2, "manT.mdl and man01.mdl");
    let load_errors = report["characters"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["findings"].as_array().unwrap().iter())
        .filter(|f| f["kind"] == "load_error" || f["kind"] == "missing_texture")
        .count();
    assert_eq!(load_errors, 0, "{}", serde_json::to_string_pretty(&report["characters"]).unwrap());
    std::fs::remove_file(&json).ok();
}
