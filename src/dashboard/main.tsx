/** Entry point: mounts the app. */
import { render } from 'preact';
import { App } from './app.js';
import { registerServiceWorker } from './notify.js';

render(<App />, document.getElementById('app')!);

void registerServiceWorker();
