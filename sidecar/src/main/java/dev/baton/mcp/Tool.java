package dev.baton.mcp;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** One MCP tool: what an agent reads in tools/list, and what runs on tools/call with arguments that fit the schema. */
record Tool(String name, String title, String description, ObjectNode inputSchema, Handler handler) {

    @FunctionalInterface
    interface Handler {
        ToolResult call(ToolArgs args);
    }
}
