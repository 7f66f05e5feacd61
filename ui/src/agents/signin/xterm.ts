// xterm.js and its fit addon, loaded with the first sign-in terminal (like CodeMirror for the
// settings). Its stylesheet is imported here so that Vite bundles it as a file of the app: the
// page's CSP takes styles from the app only (and xterm's DOM renderer sets inline styles, which
// `style-src 'unsafe-inline'` allows; it needs no eval).

import "@xterm/xterm/css/xterm.css";

export { FitAddon } from "@xterm/addon-fit";
export { Terminal } from "@xterm/xterm";
