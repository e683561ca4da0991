//! The page's files (`gui-adapters/web/`), built into the binary so that `ludus web` needs
//! nothing beside it: the HTML, the style sheets, the scripts and the icon, each with its
//! content type.

/// The page's files, built into the binary: path, content type, text.
const ASSETS: [(&str, &str, &str); 18] = [
    (
        "/index.html",
        "text/html; charset=utf-8",
        include_str!("../../../gui-adapters/web/index.html"),
    ),
    (
        "/style.css",
        "text/css; charset=utf-8",
        include_str!("../../../gui-adapters/web/style.css"),
    ),
    (
        "/app.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../gui-adapters/web/app.js"),
    ),
    (
        "/moves.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../gui-adapters/web/moves.js"),
    ),
    (
        "/notations.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../gui-adapters/web/notations.js"),
    ),
    (
        "/dialog.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../gui-adapters/web/dialog.js"),
    ),
    (
        "/analysis.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../gui-adapters/web/analysis.js"),
    ),
    (
        "/session.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../gui-adapters/web/session.js"),
    ),
    (
        "/board.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../gui-adapters/web/board.js"),
    ),
    (
        "/board-keys.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../gui-adapters/web/board-keys.js"),
    ),
    (
        "/prefs.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../gui-adapters/web/prefs.js"),
    ),
    (
        "/isaac.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../gui-adapters/web/isaac.js"),
    ),
    (
        "/isaac-ui.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../gui-adapters/web/isaac-ui.js"),
    ),
    (
        "/isaac.css",
        "text/css; charset=utf-8",
        include_str!("../../../gui-adapters/web/isaac.css"),
    ),
    (
        "/navigate.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../gui-adapters/web/navigate.js"),
    ),
    (
        "/evaluation.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../gui-adapters/web/evaluation.js"),
    ),
    (
        "/review.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../gui-adapters/web/review.js"),
    ),
    (
        "/favicon.svg",
        "image/svg+xml",
        include_str!("../../../gui-adapters/web/favicon.svg"),
    ),
];

/// The file served at `path` (`/` is `/index.html`): its content type and text.
pub fn asset(path: &str) -> Option<(&'static str, &'static str)> {
    let path = if path == "/" { "/index.html" } else { path };
    ASSETS
        .iter()
        .find(|(p, _, _)| *p == path)
        .map(|&(_, content_type, text)| (content_type, text))
}
