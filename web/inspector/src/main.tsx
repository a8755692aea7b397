import { render } from "preact";
import { App } from "./app";
import "./styles.css";
import "./sessions.css";
import "./transcript.css";
import "./viewer.css";

const root = document.getElementById("app");
if (root) render(<App />, root);
