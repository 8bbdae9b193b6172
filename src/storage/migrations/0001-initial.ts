import { type Kysely, sql } from 'kysely';

// Released migrations are never edited: add a new file instead.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('petstore_pets')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('category_id', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('available'))
    .addCheckConstraint('petstore_pets_status_check', sql`status in ('available', 'pending', 'sold')`)
    .execute();
  // (status, id) makes the filtered keyset list an index range scan; the primary key serves the rest.
  await db.schema.createIndex('petstore_pets_status_id_idx').on('petstore_pets').columns(['status', 'id']).execute();

  await db.schema
    .createTable('petstore_orders')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('pet_id', 'bigint', (c) => c.notNull().references('petstore_pets.id'))
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity >= 1`))
    .addColumn('ship_date', 'timestamptz')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('placed'))
    .addColumn('complete', 'boolean', (c) => c.notNull().defaultTo(false))
    .addCheckConstraint('petstore_orders_status_check', sql`status in ('placed', 'approved', 'delivered')`)
    .execute();
  await db.schema.createIndex('petstore_orders_pet_id_idx').on('petstore_orders').column('pet_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('petstore_orders').execute();
  await db.schema.dropTable('petstore_pets').execute();
}
