package dev.baton.dashboard.view;

import atlantafx.base.theme.Styles;
import dev.baton.dashboard.viewmodel.DashboardModel;
import dev.baton.dashboard.viewmodel.SupervisorActions;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javafx.application.Platform;
import javafx.beans.binding.Bindings;
import javafx.beans.value.ObservableValue;
import javafx.collections.ObservableList;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;

/**
 * The window's content, laid out like the AtlantaFX sampler: a sidebar of pages with live counts, the
 * page with its title, and a status bar; supervisor confirmations appear over the page.
 */
public final class MainView implements ActionRunner {

    private static final List<KeyCode> PAGE_KEYS = List.of(KeyCode.DIGIT1, KeyCode.DIGIT2, KeyCode.DIGIT3, KeyCode.DIGIT4,
            KeyCode.DIGIT5, KeyCode.DIGIT6, KeyCode.DIGIT7, KeyCode.DIGIT8, KeyCode.DIGIT9);
    private static final List<KeyCode> PAGE_KEYPAD_KEYS = List.of(KeyCode.NUMPAD1, KeyCode.NUMPAD2, KeyCode.NUMPAD3,
            KeyCode.NUMPAD4, KeyCode.NUMPAD5, KeyCode.NUMPAD6, KeyCode.NUMPAD7, KeyCode.NUMPAD8, KeyCode.NUMPAD9);

    private final DashboardModel model;
    private final StackPane root;
    private final BorderPane frame = new BorderPane();
    private final BorderPane content = new BorderPane();
    private final ListView<Page> nav = new ListView<>();
    private final Map<Page, Node> pages = new EnumMap<>(Page.class);
    private final Label pageTitle = new Label();
    private final Label pageDescription = new Label();
    private final StatusBar statusBar;
    private final ConfirmationOverlay overlay = new ConfirmationOverlay();

    public MainView(DashboardModel model, SupervisorActions actions, Consumer<Boolean> themeSwitch, boolean dark) {
        this.model = model;
        this.statusBar = new StatusBar(model);
        pages.put(Page.OVERVIEW, OverviewPage.build(model));
        pages.put(Page.SESSIONS, SessionsPage.build(model, actions, this).node());
        pages.put(Page.LOCKS, LocksPage.build(model, actions, this).node());
        pages.put(Page.TEAM, TeamPage.build(model));
        pages.put(Page.NEGOTIATIONS, NegotiationsPage.build("negotiations", model, actions, this).node());
        pages.put(Page.MESSAGES, MessagesPage.build(model).node());
        pages.put(Page.ACTIVITY, ActivityPage.build(model).node());

        pageTitle.getStyleClass().add(Styles.TITLE_2);
        pageTitle.setId("page-title");
        pageDescription.getStyleClass().add(Styles.TEXT_MUTED);
        VBox header = new VBox(2, pageTitle, pageDescription);
        header.setPadding(new Insets(16, 20, 12, 20));
        content.setTop(header);
        frame.setCenter(content);
        frame.setLeft(sidebar(themeSwitch, dark));
        frame.setBottom(statusBar);
        frame.getStyleClass().add("dashboard");
        content.setId("page-content");
        content.getStyleClass().add("page-content");
        root = new StackPane(frame, overlay);
        root.setId("dashboard-root");
        root.getStyleClass().add("dashboard-root");
        model.offlineProperty().addListener((obs, old, offline) -> root.pseudoClassStateChanged(Pseudo.OFFLINE, offline));
        root.pseudoClassStateChanged(Pseudo.OFFLINE, model.offlineProperty().get());
        root.addEventFilter(KeyEvent.KEY_PRESSED, this::pageShortcut);
        nav.getSelectionModel().selectedItemProperty().addListener((obs, old, page) -> {
            if (page != null) {
                open(page);
            }
        });
        nav.getSelectionModel().select(Page.OVERVIEW);
    }

    private Node sidebar(Consumer<Boolean> themeSwitch, boolean dark) {
        Label brand = new Label("Baton");
        brand.getStyleClass().addAll(Styles.TITLE_3, "brand");
        Label tagline = new Label("agents & their locks");
        tagline.getStyleClass().add(Styles.TEXT_MUTED);
        listPages();
        // The Team page is listed only while the sidecar is in a team: without one nothing changes.
        model.team().enabledProperty().addListener((obs, old, enabled) -> listPages());
        nav.setId("nav");
        nav.getStyleClass().add("sidebar-nav");
        nav.setCellFactory(list -> new NavCell());
        VBox.setVgrow(nav, Priority.ALWAYS);
        Button theme = new Button(dark ? "Light theme" : "Dark theme");
        theme.setId("theme-switch");
        theme.getStyleClass().add(Styles.FLAT);
        boolean[] isDark = {dark};
        theme.setOnAction(e -> {
            isDark[0] = !isDark[0];
            themeSwitch.accept(isDark[0]);
            theme.setText(isDark[0] ? "Light theme" : "Dark theme");
        });
        VBox sidebar = new VBox(4, new VBox(brand, tagline), nav, theme);
        sidebar.setPadding(new Insets(16, 8, 12, 8));
        sidebar.setPrefWidth(210);
        sidebar.getStyleClass().add("sidebar");
        return sidebar;
    }

    private void listPages() {
        Page selected = nav.getSelectionModel().getSelectedItem();
        nav.getItems().setAll(java.util.Arrays.stream(Page.values())
                .filter(page -> page != Page.TEAM || model.team().enabledProperty().get()).toList());
        if (selected != null) {
            nav.getSelectionModel().select(nav.getItems().contains(selected) ? selected : Page.OVERVIEW);
        }
    }

    public void open(Page page) {
        pageTitle.setText(page.title());
        pageDescription.setText(page.description());
        Node body = pages.get(page);
        BorderPane.setMargin(body, new Insets(0, 20, 12, 20));
        content.setCenter(body);
        if (nav.getSelectionModel().getSelectedItem() != page) {
            nav.getSelectionModel().select(page);
        }
    }

    /**
     * Ctrl+1 … Ctrl+9 open the pages in the order the sidebar lists them, wherever the focus is (a filter box too);
     * not while a confirmation is open over the page.
     */
    private void pageShortcut(KeyEvent event) {
        if (!event.isShortcutDown() || event.isAltDown() || event.isShiftDown() || overlay.isVisible()) {
            return;
        }
        int index = PAGE_KEYS.indexOf(event.getCode());
        if (index < 0) {
            index = PAGE_KEYPAD_KEYS.indexOf(event.getCode());
        }
        if (index >= 0 && index < nav.getItems().size()) {
            open(nav.getItems().get(index));
            event.consume();
        }
    }

    @Override
    public void confirmThenRun(SupervisorActions.Confirmation confirmation,
                               Supplier<CompletableFuture<SupervisorActions.Outcome>> action) {
        overlay.show(confirmation, () -> {
            statusBar.outcome("Working…", false);
            action.get().thenAccept(outcome -> Platform.runLater(() -> statusBar.outcome(outcome.message(), outcome.failed())));
        });
    }

    @Override
    public void read(String heading, CompletableFuture<String> text) {
        overlay.read(heading, "Asking the sidecar…", text);
    }

    public void focusNavigation() {
        nav.requestFocus();
    }

    public Parent root() {
        return root;
    }

    /** A sidebar entry: the page's title and, for tables, how many rows it has. */
    private final class NavCell extends ListCell<Page> {

        @Override
        protected void updateItem(Page page, boolean empty) {
            super.updateItem(page, empty);
            if (empty || page == null) {
                setGraphic(null);
                setText(null);
                return;
            }
            Label title = new Label(page.title());
            Region spacer = new Region();
            HBox.setHgrow(spacer, Priority.ALWAYS);
            HBox box = new HBox(title, spacer);
            box.setAlignment(Pos.CENTER_LEFT);
            ObservableList<?> rows = rowsOf(page);
            if (rows != null) {
                Label count = new Label();
                count.getStyleClass().add("nav-count");
                count.textProperty().bind(Bindings.size(rows).asString());
                box.getChildren().add(count);
            }
            if (page == Page.OVERVIEW) {
                Label alarm = new Label("deadlock");
                alarm.getStyleClass().add("nav-alarm");
                ObservableValue<Boolean> deadlocked = Bindings.createBooleanBinding(
                        () -> model.graphProperty().get().hasDeadlock(), model.graphProperty());
                alarm.visibleProperty().bind(Bindings.createBooleanBinding(deadlocked::getValue, deadlocked));
                alarm.managedProperty().bind(alarm.visibleProperty());
                box.getChildren().add(alarm);
            }
            setText(null);
            setGraphic(box);
        }

        private ObservableList<?> rowsOf(Page page) {
            switch (page) {
                case SESSIONS:
                    return model.sessions();
                case LOCKS:
                    return model.locks();
                case TEAM:
                    return model.team().locks();
                case NEGOTIATIONS:
                    return model.negotiations();
                case MESSAGES:
                    return model.messages();
                default:
                    return null;
            }
        }
    }
}
