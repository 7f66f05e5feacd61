import { mount } from "svelte";
import "./app.css";
import App from "./App.svelte";
import "./lib/theme";
import "./lib/dropGuard";

const target = document.getElementById("app");
if (!target) throw new Error("#app is missing from index.html");
export default mount(App, { target });
