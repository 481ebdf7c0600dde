import type { FieldValues, Resolver } from 'react-hook-form';

/**
 * A form resolver fetched at the first validation (a submit, usually): the form draws without
 * waiting for the validation library, then validates with the same shared schema as always.
 */
export function lazyResolver<TFieldValues extends FieldValues, TTransformed>(
  load: () => Promise<Resolver<TFieldValues, unknown, TTransformed>>,
): Resolver<TFieldValues, unknown, TTransformed> & { preload(): void } {
  let resolver: Promise<Resolver<TFieldValues, unknown, TTransformed>> | undefined;
  const loaded = () => (resolver ??= load());
  const resolve: Resolver<TFieldValues, unknown, TTransformed> = async (values, context, options) =>
    (await loaded())(values, context, options);
  // Called when the person starts filling the form, so that the submit does not wait.
  const preload = () => void loaded().catch((error: unknown) => console.error(error));
  return Object.assign(resolve, { preload });
}
