import { mount } from "svelte";
import "./app.css";
import App from "./App.svelte";
import "./lib/theme";
import "./lib/dropGuard";
import "./lib/ui/spinners";

const target = document.getElementById("app");
if (!target) throw new Error("#app is missing from index.html");
export default mount(App, { target });
