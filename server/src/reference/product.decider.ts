import {
  DELIVERY_MODES,
  PRODUCT_LIMITS,
  productStream,
  type DeliveryMode,
  type ProductDetails,
  type ProductEvent,
} from '@portal/projections';
import { DomainError } from '../platform/domain/domain-error.js';
import type { Aggregate } from '../platform/event-store/aggregate.js';

/** A product: what a programme sells (1:1 online tuition, a small online group, a mentoring session). */
export interface ProductState {
  exists: boolean;
  details: ProductDetails | null;
}

/** Details as the API receives them (a delivery mode is any string until the rules check it). */
export type ProductInput = Omit<ProductDetails, 'deliveryMode'> & { deliveryMode: string };

export type ProductCommand =
  | ({ type: 'CreateProduct'; productId: string } & ProductInput)
  | ({ type: 'UpdateProduct'; productId: string } & Partial<ProductInput>);

export const initialProductState: ProductState = { exists: false, details: null };

export function evolveProduct(state: ProductState, event: ProductEvent): ProductState {
  switch (event.type) {
    case 'ProductCreated': {
      const { productId: _id, ...details } = event.data;
      return { exists: true, details };
    }
    case 'ProductDetailsChanged': {
      const { productId: _id, ...changed } = event.data;
      return { ...state, details: { ...state.details!, ...changed } };
    }
  }
}

export const foldProduct = (events: ProductEvent[]) => events.reduce(evolveProduct, initialProductState);

const invalid = (detail: string) => new DomainError('invalid', detail);

/**
 * The rules a product's details obey together: a name; a delivery mode of DELIVERY_MODES; a default
 * lesson of 15..720 whole minutes; 1..60 students; a 1:1 product takes exactly one student.
 */
function checked(d: ProductInput): ProductDetails {
  const name = d.name.trim();
  if (!name) throw invalid('name: a product needs a name');
  if (!(DELIVERY_MODES as readonly string[]).includes(d.deliveryMode))
    throw invalid(`delivery_mode: must be one of ${DELIVERY_MODES.join(', ')}`);
  const { minDurationMinutes: lo, maxDurationMinutes: hi, minGroupSize, maxGroupSize } = PRODUCT_LIMITS;
  if (
    !Number.isInteger(d.defaultDurationMinutes) ||
    d.defaultDurationMinutes < lo ||
    d.defaultDurationMinutes > hi
  )
    throw invalid(`default_duration_minutes: must be a whole number of minutes from ${lo} to ${hi}`);
  if (!Number.isInteger(d.maxGroupSize) || d.maxGroupSize < minGroupSize || d.maxGroupSize > maxGroupSize)
    throw invalid(`max_group_size: must be a whole number from ${minGroupSize} to ${maxGroupSize}`);
  if (d.deliveryMode === 'online-1to1' && d.maxGroupSize !== 1)
    throw invalid('max_group_size: a 1:1 product takes exactly one student');
  return {
    name,
    deliveryMode: d.deliveryMode as DeliveryMode,
    defaultDurationMinutes: d.defaultDurationMinutes,
    maxGroupSize: d.maxGroupSize,
  };
}

const FIELDS = ['name', 'deliveryMode', 'defaultDurationMinutes', 'maxGroupSize'] as const;

/** Creating checks every detail; an update is checked as the whole product it leaves, and records only what changed. */
export function decideProduct(command: ProductCommand, state: ProductState): ProductEvent[] {
  switch (command.type) {
    case 'CreateProduct': {
      const { type: _t, productId, ...input } = command;
      const details = checked(input);
      if (state.exists) throw new DomainError('conflict', 'Product already exists');
      return [{ type: 'ProductCreated', data: { productId, ...details } }];
    }
    case 'UpdateProduct': {
      if (!state.exists || !state.details) throw new DomainError('not_found', 'Product not found');
      const current = state.details;
      const after = checked({
        name: command.name ?? current.name,
        deliveryMode: command.deliveryMode ?? current.deliveryMode,
        defaultDurationMinutes: command.defaultDurationMinutes ?? current.defaultDurationMinutes,
        maxGroupSize: command.maxGroupSize ?? current.maxGroupSize,
      });
      const changed: Partial<ProductDetails> = {};
      for (const field of FIELDS)
        if (after[field] !== current[field]) (changed as Record<string, unknown>)[field] = after[field];
      if (Object.keys(changed).length === 0) return [];
      return [{ type: 'ProductDetailsChanged', data: { productId: command.productId, ...changed } }];
    }
  }
}

export const productAggregate: Aggregate<ProductState, ProductCommand, ProductEvent> = {
  stream: productStream,
  idOf: (command) => command.productId,
  initialState: () => initialProductState,
  evolve: evolveProduct,
  decide: decideProduct,
};
