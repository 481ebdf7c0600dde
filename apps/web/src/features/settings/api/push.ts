import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/http';

/** What this browser allows: push needs a service worker, the Push API and notifications. */
export type PushSupport = 'unsupported' | 'denied' | 'available';

export function pushSupport(): PushSupport {
  if (typeof window === 'undefined' || !('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) {
    return 'unsupported';
  }
  return Notification.permission === 'denied' ? 'denied' : 'available';
}

async function registration(): Promise<ServiceWorkerRegistration> {
  // The production build registers the worker at start; a development server does not.
  return (await navigator.serviceWorker.getRegistration()) ?? navigator.serviceWorker.register('/sw.js');
}

/** The key PushManager.subscribe() takes: the server's VAPID public key as bytes. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

const pushQueryKey = ['push', 'subscription'] as const;

/** Is this device subscribed? Read from the browser: the server keeps one row per device. */
export function usePushSubscribed() {
  return useQuery({
    queryKey: pushQueryKey,
    enabled: pushSupport() !== 'unsupported',
    queryFn: async () => {
      const existing = await (await navigator.serviceWorker.getRegistration())?.pushManager.getSubscription();
      return Boolean(existing);
    },
  });
}

async function subscribe(): Promise<boolean> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return false;
  const { pushPublicKey } = await api<{ pushPublicKey: string }>('GET', '/health');
  const reg = await registration();
  await navigator.serviceWorker.ready;
  const subscription =
    (await reg.pushManager.getSubscription()) ??
    (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(pushPublicKey) }));
  const json = subscription.toJSON();
  await api('PUT', '/users/save/pushtoken', { body: { pushToken: subscription.endpoint, keys: json.keys } });
  return true;
}

async function unsubscribe(): Promise<boolean> {
  const subscription = await (await navigator.serviceWorker.getRegistration())?.pushManager.getSubscription();
  if (subscription) {
    await api('DELETE', '/users/save/pushtoken', { body: { pushToken: subscription.endpoint } });
    await subscription.unsubscribe();
  }
  return false;
}

export function useSetPush() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) => (enabled ? subscribe() : unsubscribe()),
    onSettled: () => queryClient.invalidateQueries({ queryKey: pushQueryKey }),
  });
}
