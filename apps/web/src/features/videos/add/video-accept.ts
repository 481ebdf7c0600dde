// Apart from the form's inputs (file-inputs.tsx): the case page's button that sends a case's file
// again uses it without loading the form library.

/** What the video input offers; the server decides from the content, whatever the extension. */
export const VIDEO_ACCEPT = 'video/*,.mkv,.ts,.mts,.m2ts,.avi,.mov';
