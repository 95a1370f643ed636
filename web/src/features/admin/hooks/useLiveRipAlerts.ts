import { useSubscription } from '@apollo/client/react';
import { AdminDashboardDocument, AdminRipAlertsDocument } from '../../../gql/graphql';

/**
 * While the dashboard is open, each session the server flags for ripping goes to the top of the
 * dashboard's list as it is detected, without a reload. The server only lets administrators
 * subscribe; the dashboard is theirs alone.
 */
export function useLiveRipAlerts(): void {
  useSubscription(AdminRipAlertsDocument, {
    ignoreResults: true,
    onData: ({ client, data }) => {
      const alert = data.data?.ripAlerts;
      if (!alert) return;
      // Until the dashboard has loaded there is nothing to add to: its first answer has the alert.
      client.cache.updateQuery({ query: AdminDashboardDocument }, (cached) => {
        if (!cached || cached.dashboardStats.ripAlerts.some((known) => known.id === alert.id)) return undefined;
        const stats = cached.dashboardStats;
        return { dashboardStats: { ...stats, ripAlerts: [alert, ...stats.ripAlerts] } };
      });
    },
    onError: (error) => console.warn('Rip alert feed failed', error),
  });
}
