//! The viewer in a web page (built for `wasm32` by `scripts/build-web.sh`; the page is `web/index.html`). The
//! same viewer (`ViewerApp`, started by [`crate::ui::start_web`]), loaders, controller and renderer as the desktop; what differs is
//! where files come from and how the page talks to the viewer:
//!
//! - **Files** ([`WebFiles`]): those the user dropped or picked (the page reads them, folders included, and hands
//!   each over with [`add_file`] under `/dropped/…`, keeping their relative paths), and those the page's own site
//!   serves, fetched when a loader asks for them. `?open=URL` names a file of the site: a QC opened that way reads
//!   its includes, SMDs and textures from the site by relative path. Folders of the site can be listed where the
//!   server lists them (`python3 -m http.server`, nginx `autoindex`, Apache): that is what case-insensitive
//!   lookups need; without listings, exact names still load. Requests are synchronous: loading runs on the
//!   page's one thread anyway, and the loaders ask for one file at a time.
//! - **Opening**: the page calls [`open_added`] after a drop or a pick; the viewer opens what
//!   [`crate::source::files_to_open`] chooses on its next frame.
//! - **Status**: the status line's text is mirrored into the page's `#status` element, so the page (and its
//!   headless test) can read what the viewer shows.
//!
//! What a browser cannot do is absent: watching files for changes, texture folders of the user's disk, writing
//! exports.

use std::collections::{HashMap, HashSet};
use std::io;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use wasm_bindgen::{JsCast, JsValue};

use crate::files::{Entry, FileAccess, FileBytes, Files, Kind, MemoryFiles, normalise};
use crate::ui::commands::command::OpenMode;

/// Where dropped and picked files are kept: apart from the site's own paths, so the two never mix.
pub const DROPPED: &str = "/dropped";

/// The page's files: dropped ones, and the site's, fetched on demand and kept.
#[derive(Debug, Default)]
pub struct WebFiles {
    dropped: MemoryFiles,
    fetched: MemoryFiles,
    /// Site paths asked for and not served, so each is asked for once.
    missing: Mutex<HashSet<PathBuf>>,
    /// Site folder listings read (`None`: the server gave none).
    listings: Mutex<HashMap<PathBuf, Option<Vec<Entry>>>>,
}

fn is_dropped(path: &Path) -> bool {
    normalise(path).starts_with(DROPPED)
}

/// `/a b/c#1.smd` → `/a%20b/c%231.smd`.
fn url_of(path: &Path) -> String {
    let mut url = String::new();
    for c in normalise(path).components() {
        if let Component::Normal(name) = c {
            url.push('/');
            url.push_str(&String::from(js_sys::encode_uri_component(&name.to_string_lossy())));
        }
    }
    if url.is_empty() { "/".into() } else { url }
}

/// A synchronous request for a site path; the request when the server answered 200.
fn request(method: &str, url: &str, binary: bool) -> Option<web_sys::XmlHttpRequest> {
    let xhr = web_sys::XmlHttpRequest::new().ok()?;
    xhr.open_with_async(method, url, false).ok()?;
    if binary {
        // The one way to get bytes from a synchronous request: every byte becomes one character U+F700 + byte.
        xhr.override_mime_type("text/plain; charset=x-user-defined").ok()?;
    }
    xhr.send().ok()?;
    (xhr.status().ok()? == 200).then_some(xhr)
}

fn not_served(path: &Path) -> io::Error {
    io::Error::new(io::ErrorKind::NotFound, format!("{} is not among the files given or served", path.display()))
}

impl WebFiles {
    fn known_missing(&self, key: &Path) -> bool {
        self.missing.lock().is_ok_and(|m| m.contains(key))
    }

    fn mark_missing(&self, key: PathBuf) {
        if let Ok(mut m) = self.missing.lock() {
            m.insert(key);
        }
    }

    /// The site's listing of `dir`, read once: the links of its index page (`name` or `name/`).
    fn site_listing(&self, dir: &Path) -> Option<Vec<Entry>> {
        let key = normalise(dir);
        if let Some(cached) = self.listings.lock().ok()?.get(&key) {
            return cached.clone();
        }
        let url = format!("{}/", url_of(&key).trim_end_matches('/'));
        let listing = request("GET", &url, false).and_then(|xhr| {
            let html = xhr.response_text().ok()??;
            Some(links(&html))
        });
        if let Ok(mut l) = self.listings.lock() {
            l.insert(key, listing.clone());
        }
        listing
    }
}

/// The entries an index page links to: relative links only (no `?`, `#`, `..`, scheme or absolute path).
fn links(html: &str) -> Vec<Entry> {
    let mut out: Vec<Entry> = Vec::new();
    for part in html.split("href=\"").skip(1) {
        let Some(target) = part.split('"').next() else { continue };
        if target.is_empty() || target.contains(['?', '#', ':']) || target.starts_with(['/', '.']) {
            continue;
        }
        let is_folder = target.ends_with('/');
        let name = String::from(js_sys::decode_uri_component(target.trim_end_matches('/')).unwrap_or_default());
        if !name.is_empty() && !name.contains('/') && !out.iter().any(|e| e.name == name) {
            out.push(Entry { name, is_folder });
        }
    }
    out
}

impl FileAccess for WebFiles {
    fn read(&self, path: &Path) -> io::Result<FileBytes> {
        if is_dropped(path) {
            return self.dropped.read(path);
        }
        if let Some(bytes) = self.fetched.get(path) {
            return Ok(FileBytes::Shared(bytes));
        }
        let key = normalise(path);
        if self.known_missing(&key) {
            return Err(not_served(path));
        }
        let Some(text) = request("GET", &url_of(&key), true).and_then(|xhr| xhr.response_text().ok().flatten()) else {
            self.mark_missing(key);
            return Err(not_served(path));
        };
        let bytes: Arc<[u8]> = text.chars().map(|c| (c as u32 & 0xFF) as u8).collect();
        self.fetched.insert(&key, bytes.clone());
        Ok(FileBytes::Shared(bytes))
    }

    fn kind(&self, path: &Path) -> io::Result<Kind> {
        if is_dropped(path) {
            return self.dropped.kind(path);
        }
        if let Ok(kind) = self.fetched.kind(path) {
            return Ok(kind);
        }
        let key = normalise(path);
        if self.known_missing(&key) {
            return Err(not_served(path));
        }
        let Some(xhr) = request("HEAD", &url_of(&key), false) else {
            self.mark_missing(key);
            return Err(not_served(path));
        };
        // A folder's address is answered by its index page, after a redirect to the address with a `/`.
        if xhr.response_url().ends_with('/') {
            return Ok(Kind::Folder);
        }
        let len = xhr.get_response_header("content-length").ok().flatten().and_then(|l| l.trim().parse().ok());
        Ok(Kind::File { len: len.unwrap_or(0) })
    }

    fn list(&self, dir: &Path) -> io::Result<Vec<Entry>> {
        if is_dropped(dir) {
            return self.dropped.list(dir);
        }
        self.site_listing(dir).ok_or_else(|| not_served(dir))
    }

    fn find_by_name(&self, name: &str) -> Option<PathBuf> {
        self.dropped.find_by_name(name)
    }
}

fn web_files() -> &'static Arc<WebFiles> {
    static FILES: OnceLock<Arc<WebFiles>> = OnceLock::new();
    FILES.get_or_init(Arc::default)
}

/// What the page asked to open, taken by the viewer's next frame.
static PENDING: Mutex<Option<(Vec<PathBuf>, OpenMode)>> = Mutex::new(None);
static CONTEXT: OnceLock<egui::Context> = OnceLock::new();

/// Keeps a dropped or picked file (`relative`: its path within what was dropped, `crab/crab.qc`). Returns the
/// path the viewer knows it by.
pub fn add_file(relative: &str, bytes: Vec<u8>) -> PathBuf {
    let relative = relative.trim_start_matches(['/', '\\']);
    web_files().dropped.insert(Path::new(DROPPED).join(relative), bytes)
}

/// Opens what was added (`relative` paths as given to [`add_file`]; a folder's path opens what is in it): as a
/// new model, or (`add`) bound to the open one.
pub fn open_added(relative: &[String], add: bool) {
    let given: Vec<PathBuf> =
        relative.iter().map(|r| normalise(&Path::new(DROPPED).join(r.trim_start_matches(['/', '\\'])))).collect();
    let files = Files::from_arc(web_files().clone());
    let paths = crate::source::files_to_open(&files, &given);
    let mode = if add { OpenMode::Bind } else { OpenMode::Auto };
    if let Ok(mut pending) = PENDING.lock() {
        *pending = Some((paths, mode));
    }
    if let Some(ctx) = CONTEXT.get() {
        ctx.request_repaint();
    }
}

/// The page's request to open files, once.
pub(crate) fn take_pending() -> Option<(Vec<PathBuf>, OpenMode)> {
    PENDING.lock().ok()?.take()
}

/// Asks the page to show its file picker (`window.bonescopePickFiles(add)`).
pub(crate) fn pick_files(mode: OpenMode) {
    let Some(window) = web_sys::window() else { return };
    let picker = js_sys::Reflect::get(&window, &JsValue::from_str("bonescopePickFiles")).ok();
    if let Some(picker) = picker.and_then(|p| p.dyn_into::<js_sys::Function>().ok()) {
        let _ = picker.call1(&JsValue::NULL, &JsValue::from_bool(mode == OpenMode::Bind));
    }
}

/// Asks the page to show its folder picker (`window.bonescopePickFolder()`).
pub(crate) fn pick_folder() {
    let Some(window) = web_sys::window() else { return };
    let picker = js_sys::Reflect::get(&window, &JsValue::from_str("bonescopePickFolder")).ok();
    if let Some(picker) = picker.and_then(|p| p.dyn_into::<js_sys::Function>().ok()) {
        let _ = picker.call0(&JsValue::NULL);
    }
}

/// Writes the status line into the page's `#status` element (when it changed), and whether a load is running
/// into its `data-loading` attribute.
pub(crate) fn show_status(text: &str, loading: bool) {
    thread_local! {
        static LAST: std::cell::RefCell<(String, bool)> = const { std::cell::RefCell::new((String::new(), true)) };
    }
    let changed = LAST.with(|last| {
        let mut last = last.borrow_mut();
        let changed = last.0 != text || last.1 != loading;
        if changed {
            *last = (text.to_owned(), loading);
        }
        changed
    });
    if !changed {
        return;
    }
    let element = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("status"));
    if let Some(element) = element {
        element.set_text_content(Some(text));
        let _ = element.set_attribute("data-loading", if loading { "true" } else { "false" });
    }
}

/// The site paths the page's address names with `?open=` (same origin only; others are reported).
pub(crate) fn open_parameters() -> (Vec<PathBuf>, Vec<String>) {
    let mut paths = Vec::new();
    let mut refused = Vec::new();
    let Some(location) = web_sys::window().map(|w| w.location()) else { return (paths, refused) };
    let (Ok(href), Ok(origin)) = (location.href(), location.origin()) else { return (paths, refused) };
    let Ok(url) = web_sys::Url::new(&href) else { return (paths, refused) };
    let values = url.search_params().get_all("open");
    for value in values.iter() {
        let Some(value) = value.as_string() else { continue };
        match web_sys::Url::new_with_base(&value, &href) {
            Ok(target) if target.origin() == origin => {
                let decoded = js_sys::decode_uri_component(&target.pathname()).map(String::from);
                paths.push(PathBuf::from(decoded.unwrap_or_else(|_| target.pathname())));
            }
            _ => refused.push(value),
        }
    }
    (paths, refused)
}

/// The page's files, for the viewer's loads and its renderer's textures.
pub(crate) fn page_files() -> Files {
    Files::from_arc(web_files().clone())
}

/// Lets the page's calls wake the viewer (called once, when the viewer starts).
pub(crate) fn set_context(ctx: &egui::Context) {
    let _ = CONTEXT.set(ctx.clone());
}
