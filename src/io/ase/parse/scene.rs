//! `*SCENE { … }`: the file name and the time base (first and last frame, frames per second, ticks per frame).

use super::super::lexer::{Lexer, Token, unclosed};
use super::super::records::Scene;
use crate::io::LoadError;
use crate::io::text::decode_name;

pub(super) fn parse_scene(lx: &mut Lexer) -> Result<Scene, LoadError> {
    let open = lx.line();
    let mut scene = Scene { present: true, ..Scene::default() };
    loop {
        match lx.next_token() {
            Token::Close => return Ok(scene),
            Token::End => return Err(unclosed(b"SCENE", open, lx.line())),
            Token::Keyword(k) => match k {
                b"SCENE_FILENAME" => scene.file_name = decode_name(lx.inline_word().unwrap_or_default()),
                b"SCENE_FIRSTFRAME" => scene.first_frame = lx.arg_int("SCENE_FIRSTFRAME")?,
                b"SCENE_LASTFRAME" => scene.last_frame = lx.arg_int("SCENE_LASTFRAME")?,
                b"SCENE_FRAMESPEED" => scene.frame_speed = lx.arg_f32("SCENE_FRAMESPEED")?,
                b"SCENE_TICKSPERFRAME" => scene.ticks_per_frame = lx.arg_f32("SCENE_TICKSPERFRAME")?,
                _ => {
                    lx.skip_entry(k)?;
                }
            },
            Token::Open => lx.skip_block(b"SCENE", open)?,
            _ => {}
        }
    }
}
