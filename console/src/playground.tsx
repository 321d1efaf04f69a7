// The GraphQL playground (GraphiQL), served at /playground from the same
// embedded build as the console, so that it works with no other host. It
// opens with the console's key in its headers when the tab has one.
import { createRoot } from 'react-dom/client';
import { GraphiQL } from 'graphiql';
import type { Fetcher } from '@graphiql/toolkit';
import 'graphiql/style.css';
import { KEY_STORAGE } from './api';

const fetcher: Fetcher = async (params, opts) => {
  const res = await window.fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(opts?.headers ?? {}) },
    body: JSON.stringify(params),
  });
  return res.json();
};

const headers = JSON.stringify({ 'x-api-key': sessionStorage.getItem(KEY_STORAGE) ?? '' }, null, 2);

createRoot(document.getElementById('root')!).render(<GraphiQL fetcher={fetcher} defaultHeaders={headers} />);
