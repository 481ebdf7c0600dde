// hls.js ships the types of its full build only; the light build (no subtitles, alternate audio
// or DRM, none of which a ladder of Sutura has) has the same API.
declare module 'hls.js/light' {
  export * from 'hls.js';
  export { default } from 'hls.js';
}
