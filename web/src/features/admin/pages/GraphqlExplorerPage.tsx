import { Box, Container } from '@mui/material';
import { GraphiQL, type GraphiQLProps } from 'graphiql';
import 'graphiql/setup-workers/vite';
import 'graphiql/style.css';
import { authHeaders } from '../../../app/request-headers';
import { AdminPageHeader } from '../components/AdminPageHeader';

/**
 * Queries and mutations go to this app's /graphql with the signed-in administrator's token and
 * device id, as the app's own calls do (subscriptions are the app's WebSocket's business).
 */
const fetcher: GraphiQLProps['fetcher'] = async (params) => {
  const res = await fetch('/graphql', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...authHeaders() },
    body: JSON.stringify(params),
  });
  return res.json();
};

/**
 * Administrators: GraphiQL on the app's own schema, bundled and served by the app (no CDN).
 * This page is its own chunk, so the editor never weighs on other screens.
 */
export function GraphqlExplorerPage() {
  return (
    <Container maxWidth={false} sx={{ py: 2 }}>
      <AdminPageHeader title="GraphQL Explorer" back="/admin" />
      <Box sx={{ height: 'calc(100vh - 180px)', minHeight: 480, border: 1, borderColor: 'divider' }}>
        <GraphiQL fetcher={fetcher} defaultQuery={'{\n  me {\n    id\n    email\n  }\n}\n'} />
      </Box>
    </Container>
  );
}
