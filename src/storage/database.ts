import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

/**
 * Table types, kept apart from the API types. int8 columns are `bigint | number | string` on
 * the way out because each driver returns them differently (pg: string; PGlite: number up to
 * 2^53, bigint above); repositories normalise them to bigint (see int8.ts).
 */
type Int8 = ColumnType<bigint | number | string, bigint | string, bigint | string>;
type Int8Generated = ColumnType<bigint | number | string, bigint | string | undefined, never>;

export interface PetTable {
  id: Int8Generated;
  name: string;
  category_id: Int8;
  status: 'available' | 'pending' | 'sold';
}

export interface OrderTable {
  id: Int8Generated;
  pet_id: Int8;
  quantity: number;
  ship_date: ColumnType<Date | null, Date | null | undefined, Date | null>;
  status: 'placed' | 'approved' | 'delivered';
  complete: Generated<boolean>;
}

/** The tables petstore-router creates (names prefixed so they never collide with a host app's). */
export interface Database {
  petstore_pets: PetTable;
  petstore_orders: OrderTable;
}

export type PetRow = Selectable<PetTable>;
export type NewPetRow = Insertable<PetTable>;
export type OrderRow = Selectable<OrderTable>;
