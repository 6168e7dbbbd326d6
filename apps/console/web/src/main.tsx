import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './App';
import { loadConfig } from './config';
import { ConsoleProvider } from './context';
import './styles.css';

const root = createRoot(document.getElementById('root')!);

loadConfig().then(
  (config) =>
    root.render(
      <StrictMode>
        <BrowserRouter>
          <ConsoleProvider config={config}>
            <App />
          </ConsoleProvider>
        </BrowserRouter>
      </StrictMode>,
    ),
  (error: unknown) =>
    root.render(
      <main id="main" className="narrow">
        <h1>The console cannot start</h1>
        <p role="alert">It could not read its configuration: {error instanceof Error ? error.message : String(error)}</p>
      </main>,
    ),
);
