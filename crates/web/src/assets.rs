//! The page, inside the binary: plain JavaScript modules, a style sheet and one HTML file
//! (`page/`), no build step. Only these files are served: any other path is the page
//! itself when it is one of the page's own routes, else 404, so no path can reach the
//! file system.

use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};

/// The page's files: path, content type, content.
pub const FILES: &[(&str, &str, &str)] = &[
    (
        "/",
        "text/html; charset=utf-8",
        include_str!("../page/index.html"),
    ),
    (
        "/style.css",
        "text/css; charset=utf-8",
        include_str!("../page/style.css"),
    ),
    (
        "/app.js",
        "text/javascript; charset=utf-8",
        include_str!("../page/app.js"),
    ),
    (
        "/net.js",
        "text/javascript; charset=utf-8",
        include_str!("../page/net.js"),
    ),
    (
        "/paint.js",
        "text/javascript; charset=utf-8",
        include_str!("../page/paint.js"),
    ),
    (
        "/keys.js",
        "text/javascript; charset=utf-8",
        include_str!("../page/keys.js"),
    ),
    (
        "/lobby.js",
        "text/javascript; charset=utf-8",
        include_str!("../page/lobby.js"),
    ),
    (
        "/sound.js",
        "text/javascript; charset=utf-8",
        include_str!("../page/sound.js"),
    ),
];

/// The page's own routes, answered with the page (it reads the path itself).
const ROUTES: &[&str] = &["/play", "/watch", "/boards", "/account"];

/// Serves a file of [`FILES`], the page for its routes, or 404.
pub async fn serve(uri: Uri) -> Response {
    let path = uri.path();
    let file = FILES.iter().find(|(p, _, _)| *p == path).or_else(|| {
        ROUTES
            .iter()
            .any(|r| {
                path == *r
                    || path
                        .strip_prefix(r)
                        .is_some_and(|rest| rest.starts_with('/'))
            })
            .then_some(&FILES[0])
    });
    match file {
        Some((_, kind, body)) => (
            [
                (header::CONTENT_TYPE, *kind),
                (header::CACHE_CONTROL, "no-cache"),
                (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
                (
                    header::CONTENT_SECURITY_POLICY,
                    "default-src 'self'; img-src 'self' data:; style-src 'self'; \
                     script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
                ),
            ],
            *body,
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}
