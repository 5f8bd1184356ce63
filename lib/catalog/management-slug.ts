/** The catalog's path of the management API (`/apis/management`), which no registered API may take. */
export const MANAGEMENT_API_SLUG = "management";

export const MANAGEMENT_SLUG_MESSAGE = "This path is the management API's page in the catalog";
