//! One object block (`*GEOMOBJECT`, `*HELPEROBJECT`, cameras, lights, shapes): its name, parent, `*NODE_TM`,
//! mesh, skin weights, material and animation; a target camera's or light's `.Target` becomes a second record.

use glam::{Mat4, Vec3};

use super::super::lexer::{Lexer, Token, unclosed};
use super::super::records::{NodeKind, RawFile, RawNode};
use super::lists::warn;
use super::{animation, mesh, skin, top_level};
use crate::io::LoadError;
use crate::io::text::decode_name;

pub(super) fn parse_object(lx: &mut Lexer, file: &mut RawFile, kind: NodeKind) -> Result<(), LoadError> {
    let start = lx.line();
    let open = lx.expect_open(top_level::block_keyword(kind))?;
    let mut node = RawNode::new(kind, start);
    let mut target: Option<RawNode> = None;
    loop {
        lx.skip_space();
        let line = lx.line();
        match lx.next_token() {
            Token::Close => break,
            Token::End => return Err(unclosed(b"GEOMOBJECT", open, lx.line())),
            Token::Keyword(k) => match k {
                b"NODE_NAME" => {
                    let name = decode_name(lx.arg_name("NODE_NAME")?);
                    if node.name.is_empty() {
                        node.name = name;
                    }
                }
                b"NODE_PARENT" => {
                    let parent = decode_name(lx.arg_name("NODE_PARENT")?);
                    if !parent.trim().is_empty() {
                        node.parent = Some(parent);
                    }
                }
                b"NODE_TM" => {
                    lx.expect_open("NODE_TM")?;
                    let (name, tm) = parse_node_tm(lx, line)?;
                    // Target cameras and lights write their target's transform as a second NODE_TM.
                    if node.tm.is_some() && name.as_deref().is_some_and(|n| n != node.name) {
                        let t = target.get_or_insert_with(|| RawNode::new(NodeKind::Target, line));
                        t.name = name.unwrap_or_default();
                        t.tm = Some(tm);
                    } else {
                        node.tm = Some(tm);
                    }
                }
                b"MESH" => {
                    let open = lx.expect_open("MESH")?;
                    let mesh = mesh::parse_mesh(lx, &mut file.warnings, open, true)?;
                    if node.mesh.is_some() {
                        warn(&mut file.warnings, line, "a second *MESH in one object replaces the first");
                    }
                    node.mesh = Some(mesh);
                }
                b"MESH_SOFTSKIN" => {
                    let open = lx.expect_open("MESH_SOFTSKIN")?;
                    if matches!(lx.peek_token(), Token::Keyword(_)) {
                        // Older exporters name the mesh block itself *MESH_SOFTSKIN.
                        node.mesh = Some(mesh::parse_mesh(lx, &mut file.warnings, open, true)?);
                    } else {
                        let skins = skin::parse_soft_skin_body(lx, open, b"MESH_SOFTSKIN")?;
                        if let Some((_, skin)) = skins.into_iter().next() {
                            node.skin = Some(skin);
                        }
                    }
                }
                b"MESH_WEIGHTS" => {
                    let open = lx.expect_open("MESH_WEIGHTS")?;
                    node.skin = Some(skin::parse_mesh_weights(lx, &mut file.warnings, open)?);
                }
                b"MESH_ANIMATION" => {
                    let open = lx.expect_open("MESH_ANIMATION")?;
                    node.frames.extend(animation::parse_mesh_animation(lx, &mut file.warnings, open)?);
                }
                b"MATERIAL_REF" => node.material_ref = Some((line, lx.arg_int("MATERIAL_REF")?)),
                b"WIREFRAME_COLOR" => node.wire_color = Some(lx.arg_f32s::<3>("WIREFRAME_COLOR")?),
                b"TM_ANIMATION" => {
                    let open = lx.expect_open("TM_ANIMATION")?;
                    let (name, anim) = animation::parse_tm_animation(lx, &mut file.warnings, open)?;
                    let for_target = name.as_deref().is_some_and(|n| n != node.name && n.ends_with(".Target"));
                    if for_target {
                        let t = target.get_or_insert_with(|| RawNode::new(NodeKind::Target, line));
                        if t.name.is_empty() {
                            t.name = name.unwrap_or_default();
                        }
                        t.anim = Some(anim);
                    } else {
                        node.anim = Some(anim);
                    }
                }
                _ => {
                    lx.skip_entry(k)?;
                }
            },
            Token::Open => lx.skip_block(b"(unnamed block)", line)?,
            _ => {}
        }
    }
    if node.name.is_empty() {
        node.name = format!("{} at line {start}", node.kind.label());
        warn(&mut file.warnings, start, format!("object without *NODE_NAME, named '{}'", node.name));
    }
    // Meshes written with their animation inside *MESH.
    if let Some(mesh) = &mut node.mesh
        && !mesh.frames.is_empty()
    {
        node.frames.append(&mut mesh.frames);
    }
    if let Some(mesh) = &mut node.mesh
        && node.skin.is_none()
    {
        node.skin = mesh.weights.take();
    }
    file.nodes.push(node);
    if let Some(t) = target {
        file.nodes.push(t);
    }
    Ok(())
}

fn parse_node_tm(lx: &mut Lexer, open: usize) -> Result<(Option<String>, Mat4), LoadError> {
    let mut name = None;
    let mut rows = [Vec3::X, Vec3::Y, Vec3::Z, Vec3::ZERO];
    loop {
        lx.skip_space();
        let line = lx.line();
        match lx.next_token() {
            Token::Close => break,
            Token::End => return Err(unclosed(b"NODE_TM", open, lx.line())),
            Token::Keyword(k) => match k {
                b"NODE_NAME" => name = Some(decode_name(lx.inline_word().unwrap_or_default())),
                b"TM_ROW0" => rows[0] = Vec3::from(lx.arg_f32s::<3>("TM_ROW0")?),
                b"TM_ROW1" => rows[1] = Vec3::from(lx.arg_f32s::<3>("TM_ROW1")?),
                b"TM_ROW2" => rows[2] = Vec3::from(lx.arg_f32s::<3>("TM_ROW2")?),
                b"TM_ROW3" => rows[3] = Vec3::from(lx.arg_f32s::<3>("TM_ROW3")?),
                _ => {
                    lx.skip_entry(k)?;
                }
            },
            Token::Open => lx.skip_block(b"NODE_TM", line)?,
            _ => {}
        }
    }
    // Max writes row vectors (p' = p·M, row 3 = translation); as glam column vectors the rows become columns.
    Ok((name, Mat4::from_cols(rows[0].extend(0.0), rows[1].extend(0.0), rows[2].extend(0.0), rows[3].extend(1.0))))
}
